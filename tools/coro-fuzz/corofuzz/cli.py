# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""coro-fuzz command line: gen, run (a campaign), reduce."""

import argparse
import json
import multiprocessing
import os
import shutil
import sys
import time

from . import emit, gen, oracle, reduce as red
from .run import (CLASSES, CONFIGS, Runner, find_ptxas, is_host_config, last_lines)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

DESCRIPTION = """\
Random coroutine-program generator with an independent CPU oracle and a
differential driver (with automatic reduction) for CoroGPU.

Each seed gives one deterministic program (a coro.func entry, possibly a
generator, and coro.func callees it awaits) together with its coro-run
arguments. The oracle is the same program emitted with upstream dialects
only (suspensions erased, awaits as calls), lowered with mlir-opt and run
with mlir-runner. Each configuration runs coro-run --check and compares
every buffer with the oracle exactly, emits SPIR-V (spirv-val) and, for the
default configuration of each scheduler, PTX (ptxas, when present).

Failure classes: crash, rejected, invalid-code, reference-wrong,
scheduler-wrong, timeout, oracle-error (a generator bug).
"""


def parse_seeds(text):
    """1-200, 1,5,9-12"""
    seeds = []
    for part in text.split(","):
        part = part.strip()
        k = part.find("-", 1)
        if k > 0:
            seeds.extend(range(int(part[:k]), int(part[k + 1:]) + 1))
        elif part:
            seeds.append(int(part))
    return seeds


def default_tool(name, variable="CORO_RUN"):
    for cand in [os.environ.get(variable), os.path.join(REPO, "build", "bin", name)]:
        if cand and os.path.exists(cand):
            return cand
    return shutil.which(name) or os.path.join(REPO, "build", "bin", name)


def make_runner(args):
    ptxas = None if args.no_ptx else find_ptxas()
    return Runner(args.coro_run, timeout=args.timeout, ptxas=ptxas,
                  spirv_val=None if args.no_spirv else shutil.which("spirv-val"),
                  backend=args.backend, coro_opt=args.coro_opt,
                  wrappers=args.wrappers)


def rewrite(text, old, new):
    return text.replace(old, new)


def save_failure(res, prog, wd, faildir):
    os.makedirs(faildir, exist_ok=True)
    # A host configuration's program is <config>.mlir.
    for name in ["prog.mlir", "oracle.mlir", "table.bin", res.config + ".mlir"]:
        src = os.path.join(wd, name)
        if os.path.exists(src):
            shutil.copy(src, os.path.join(faildir, name))
    with open(os.path.join(faildir, "commands.sh"), "w") as f:
        f.write("#!/bin/sh\n# seed %s, configuration %s: %s (%s)\n" % (
            prog.seed, res.config, res.klass, res.stage))
        # A host configuration pipes coro-opt into mlir-runner.
        sep = " |\n" if is_host_config(res.config) else "\n"
        f.write(sep.join(rewrite(c.line(), wd, faildir) for c in res.cmds) + "\n")
    with open(os.path.join(faildir, "output.txt"), "w") as f:
        for c in res.cmds:
            f.write("$ %s\n%s\n" % (rewrite(c.line(), wd, faildir),
                                     "(timed out)" if c.timed_out else "exit %s" % c.rc))
            f.write(c.out + "\n")
        f.write("\n%s (%s): %s\n" % (res.klass, res.stage, res.detail))


# ------------------------------------------------------------------ run
def seed_job(job):
    try:
        return _seed_job(job)
    except Exception:  # a generator or driver bug: report it, keep going
        import traceback
        seed = job[0]
        return seed, [{"seed": seed, "config": "oracle", "class": "oracle-error",
                       "stage": "generator", "detail": traceback.format_exc()}], 0.0


def _seed_job(job):
    seed, args = job
    t0 = time.time()
    runner = make_runner(args)
    prog = gen.generate(seed)
    wd = os.path.join(args.out, "work", "seed-%d" % seed)
    configs = [c for c in args.configs]
    results = runner.evaluate(prog, wd, configs)
    out = []
    for r in results:
        entry = {"seed": seed, "config": r.config, "class": r.klass, "stage": r.stage,
                 "detail": r.detail}
        if r.klass:
            faildir = os.path.join(args.out, "failures", r.klass, "seed%d-%s" % (seed, r.config))
            save_failure(r, prog, wd, faildir)
            entry["dir"] = faildir
        out.append(entry)
    if not args.keep:
        shutil.rmtree(wd, ignore_errors=True)
    return seed, out, time.time() - t0


def summarize(results, configs, seeds, seconds, out_dir):
    table = {k: {c: 0 for c in configs + ["oracle"]} for k in ["pass"] + CLASSES}
    failures = []
    for r in results:
        table[r["class"] or "pass"].setdefault(r["config"], 0)
        table[r["class"] or "pass"][r["config"]] += 1
        if r["class"]:
            failures.append(r)
    cols = [c for c in configs] + (["oracle"] if any(r["config"] == "oracle" for r in results) else [])
    passed = sum(1 for r in results if not r["class"])
    failed = len(failures)
    lines = ["| class | " + " | ".join(cols) + " | total |",
             "|---" * (len(cols) + 2) + "|"]
    for k in ["pass"] + CLASSES:
        row = [table[k].get(c, 0) for c in cols]
        if k != "pass" and not any(row):
            continue
        lines.append("| %s | %s | %d |" % (k, " | ".join(str(x) for x in row), sum(row)))
    md = "\n".join(lines)
    summary = {"seeds": len(seeds), "runs": len(results), "passed": passed, "failed": failed,
               "seconds": round(seconds, 1),
               "seconds_per_seed": round(seconds / max(1, len(seeds)), 2),
               "table": {k: {c: table[k].get(c, 0) for c in cols} for k in ["pass"] + CLASSES},
               "failures": failures}
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out_dir, "summary.md"), "w") as f:
        f.write("# coro-fuzz: %d seeds, %d runs, %d passed, %d failed (%.1f s, %.2f s per seed)\n\n"
                % (len(seeds), len(results), passed, failed, seconds, summary["seconds_per_seed"]))
        f.write(md + "\n\n")
        for r in failures:
            f.write("- seed %d `%s`: **%s** (%s) %s  \n  %s\n" % (
                r["seed"], r["config"], r["class"], r["stage"], r.get("dir", ""),
                headline(r["detail"])))
    return md, passed, failed, failures


def headline(detail):
    """The most telling line of a failure's output."""
    lines = (detail or "").splitlines()
    for l in lines:
        if "error:" in l and "coro-run: error: compiling" not in l:
            return l.strip()
    return lines[-1].strip() if lines else ""


def cmd_run(args):
    seeds = parse_seeds(args.seeds)
    os.makedirs(args.out, exist_ok=True)
    probe = make_runner(args)
    if not probe.ptxas:
        print("coro-fuzz: note: no ptxas (or --no-ptx): PTX is NOT checked", flush=True)
    if not probe.spirv_val:
        print("coro-fuzz: note: no spirv-val (or --no-spirv): SPIR-V is NOT validated", flush=True)
    jobs = [(s, args) for s in seeds]
    results = []
    t0 = time.time()
    tty = sys.stderr.isatty()
    nfail = 0
    done = 0
    per_seed = []
    last_progress = time.time()
    with multiprocessing.Pool(args.jobs) as pool:
        for seed, out, secs in pool.imap_unordered(seed_job, jobs):
            done += 1
            per_seed.append(secs)
            results.extend(out)
            bad = [r for r in out if r["class"]]
            nfail += len(bad)
            if tty:
                sys.stderr.write("\r[%d/%d seeds] %d runs failed " % (done, len(seeds), nfail))
                sys.stderr.flush()
            elif time.time() - last_progress >= 60 or done == len(seeds):
                # Not a terminal (a log file, CI): a line a minute.
                last_progress = time.time()
                print("coro-fuzz: %d/%d seeds, %d runs failed, %.1f min" % (
                    done, len(seeds), nfail, (last_progress - t0) / 60), flush=True)
            for r in bad:
                msg = "seed %d %s: %s (%s): %s" % (seed, r["config"], r["class"], r["stage"],
                                                   headline(r["detail"])[:160])
                if tty:
                    sys.stderr.write("\r" + msg + " " * 20 + "\n")
                elif args.verbose:
                    print(msg, flush=True)
    if tty:
        sys.stderr.write("\n")
    seconds = time.time() - t0
    results.sort(key=lambda r: (r["seed"], list(CONFIGS).index(r["config"]) if r["config"] in CONFIGS else -1))
    md, passed, failed, failures = summarize(results, args.configs, seeds, seconds, args.out)
    print(md)
    print("time: %.1f s for %d seeds (%.2f s per seed on %d jobs, %.2f s of one job per seed)" % (
        seconds, len(seeds), seconds / max(1, len(seeds)), args.jobs,
        sum(per_seed) / max(1, len(per_seed))))
    print("summary: %s" % os.path.join(args.out, "summary.md"))
    if args.reduce and failures:
        # One reduction per (seed, class, stage), under the first failing
        # configuration (the mega-kernel first); distinct messages first.
        import re
        per_seed = {}
        for r in failures:
            per_seed.setdefault((r["seed"], r["class"], r["stage"]), r)
        picked, later, msgs = [], [], set()
        for r in per_seed.values():
            msg = re.sub(r"[0-9]+", "N", (r["detail"] or "").split("\n")[0])
            key = (r["class"], r["stage"], msg)
            (later if key in msgs else picked).append(r)
            msgs.add(key)
        chosen = (picked + later)[:args.reduce_max]
        rjobs = [(r["seed"], r["config"], r["class"], r["stage"], args) for r in chosen]
        print("reducing %d of %d failures (one per seed, class and stage; --reduce-max %d)" % (
            len(rjobs), len(per_seed), args.reduce_max), flush=True)
        with multiprocessing.Pool(args.jobs) as pool:
            for line in pool.imap_unordered(reduce_job, rjobs):
                print(line, flush=True)
    print("coro-fuzz: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


# ------------------------------------------------------------------ reduce
STAGES = {"run": ("run",), "emit-spirv": ("spirv",), "spirv-val": ("spirv",),
          "emit-ptx": ("ptx",), "ptxas": ("ptx",), "oracle": ()}


class ReduceError(Exception):
    pass


def reduce_job(job):
    seed, config, klass, stage, args = job
    try:
        path = do_reduce(seed, config, klass, stage, args, log=lambda *a: None)
        return "seed %d %s %s (%s): reduced to %s" % (seed, config, klass, stage, path)
    except ReduceError as e:
        return "seed %d %s %s: not reduced: %s" % (seed, config, klass, e)
    except Exception as e:  # keep the campaign going
        return "seed %d %s %s: reduction failed: %r" % (seed, config, klass, e)


def do_reduce(seed, config, klass, stage, args, log=print):
    runner = make_runner(args)
    prog = gen.generate(seed)
    base = os.path.join(args.out, "reduced", "%s-seed%d-%s" % (klass, seed, config))
    wd = os.path.join(base, "work")
    semantic = klass in ("reference-wrong", "scheduler-wrong", "oracle-error")
    configs = [] if klass == "oracle-error" else sorted({"mk", config}) if semantic else [config]
    stages = STAGES.get(stage, ("run", "spirv", "ptx")) if not semantic else ("run",)

    def outcome(p):
        results = runner.evaluate(p, wd, configs, need_oracle=semantic, stages=stages)
        for r in results:
            if r.config == (config if klass != "oracle-error" else "oracle"):
                return r
        return None

    if klass is None:
        r = None
        for x in runner.evaluate(prog, wd, sorted({"mk", config})):
            if x.config in (config, "oracle"):
                r = x
        if r is None or r.ok:
            raise ReduceError("seed %d passes under %s: nothing to reduce" % (seed, config))
        log("seed %d under %s: %s (%s)" % (seed, config, r.klass, r.stage))
        return do_reduce(seed, config, r.klass, r.stage, args, log)

    def still_fails(p):
        r = outcome(p)
        return r is not None and r.klass == klass and r.stage == stage

    first = outcome(prog)
    if first is None or first.klass != klass or first.stage != stage:
        raise ReduceError("seed %d under %s does not fail with %s (%s) here (any more)" % (
            seed, config, klass, stage))
    log("reducing seed %d under %s: %s (%s)" % (seed, config, klass, stage))
    small = red.reduce(prog, still_fails, time_limit=args.reduce_time, log=log)
    final = outcome(small)
    os.makedirs(base, exist_ok=True)
    shutil.copy(os.path.join(wd, "prog.mlir"), os.path.join(base, "reduced.mlir"))
    shutil.copy(os.path.join(wd, "table.bin"), os.path.join(base, "table.bin"))
    if semantic or os.path.exists(os.path.join(wd, "oracle.mlir")):
        with open(os.path.join(base, "reduced-oracle.mlir"), "w") as f:
            f.write(oracle.emit_oracle(small))
    with open(os.path.join(base, "repro.sh"), "w") as f:
        f.write("#!/bin/sh\n# seed %d, configuration %s: %s (%s), reduced\n# %s\n" % (
            seed, config, klass, stage, (final.detail or "").replace("\n", "\n# ")))
        for c in final.cmds:
            f.write(c.line().replace(wd + "/prog.mlir", base + "/reduced.mlir").replace(wd, base) + "\n")
    os.chmod(os.path.join(base, "repro.sh"), 0o755)
    def fix(text):
        return text.replace(wd + "/prog.mlir", base + "/reduced.mlir").replace(wd, base)
    with open(os.path.join(base, "output.txt"), "w") as f:
        for c in final.cmds:
            f.write("$ %s\n%s\n\n" % (fix(c.line()), fix(c.out)))
        f.write("%s (%s): %s\n" % (final.klass, final.stage, fix(final.detail or "")))
    shutil.rmtree(wd, ignore_errors=True)
    return os.path.join(base, "reduced.mlir")


def cmd_reduce(args):
    try:
        path = do_reduce(args.seed, args.config, args.klass, args.stage, args)
    except ReduceError as e:
        print("coro-fuzz: %s" % e)
        return 1
    print("reduced: %s" % path)
    print("repro:   %s" % os.path.join(os.path.dirname(path), "repro.sh"))
    return 0


# ------------------------------------------------------------------ gen
def cmd_gen(args):
    prog = gen.generate(args.seed)
    if args.out_dir:
        os.makedirs(args.out_dir, exist_ok=True)
        table = os.path.join(args.out_dir, "table.bin")
        with open(os.path.join(args.out_dir, "prog.mlir"), "w") as f:
            f.write(emit.emit_coro(prog))
        with open(os.path.join(args.out_dir, "oracle.mlir"), "w") as f:
            f.write(oracle.emit_oracle(prog))
        with open(table, "wb") as f:
            f.write(emit.table_bytes(prog))
        print("coro-run %s %s" % (os.path.join(args.out_dir, "prog.mlir"),
                                  " ".join(emit.run_args(prog, table))))
        return 0
    print(oracle.emit_oracle(prog) if args.oracle else emit.emit_coro(prog))
    if not args.oracle:
        print("// coro-run arguments (the table: coro-fuzz gen %d --out-dir DIR writes it):" % args.seed)
        print("//   " + " ".join(emit.run_args(prog, "table.bin")))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="coro-fuzz", description=DESCRIPTION,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p):
        p.add_argument("--coro-run", default=default_tool("coro-run"),
                       help="coro-run binary (default: build/bin/coro-run of this tree, or $CORO_RUN)")
        p.add_argument("--coro-opt", default=default_tool("coro-opt", "CORO_OPT"),
                       help="coro-opt binary of the host-program configurations (host-*; "
                       "default: build/bin/coro-opt of this tree, or $CORO_OPT)")
        p.add_argument("--wrappers", default=os.path.join(REPO, "build", "lib",
                                                          "libcoro_runtime_wrappers.so"),
                       help="runtime wrappers of the host-program configurations "
                       "(default: build/lib/libcoro_runtime_wrappers.so of this tree)")
        p.add_argument("--backend", default="vulkan", choices=["vulkan", "cuda"],
                       help="device backend of every coro-run run (default vulkan); "
                       "SPIR-V and PTX are checked either way")
        p.add_argument("--timeout", type=float, default=120, help="seconds per command (default 120)")
        p.add_argument("--out", default="coro-fuzz-out", help="output directory (default coro-fuzz-out)")
        p.add_argument("--no-ptx", action="store_true", help="skip PTX emission and ptxas")
        p.add_argument("--no-spirv", action="store_true", help="skip SPIR-V emission and spirv-val")
        p.add_argument("--reduce-time", type=float, default=600,
                       help="seconds a reduction may take (default 600)")

    g = sub.add_parser("gen", help="print the program of a seed (and its coro-run arguments)")
    g.add_argument("seed", type=int)
    g.add_argument("--oracle", action="store_true", help="print the oracle module instead")
    g.add_argument("--out-dir", help="write prog.mlir, oracle.mlir and table.bin there, "
                   "print the coro-run command")
    r = sub.add_parser("run", help="run a campaign over seeds under every configuration")
    r.add_argument("--seeds", default="1-50", help="seeds: 1-200 or 1,5,9-12 (default 1-50)")
    r.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                   help="seeds run in parallel (default: number of CPUs)")
    r.add_argument("--configs", default=",".join(CONFIGS),
                   help="comma-separated configurations (default all: %s)" % ",".join(CONFIGS))
    r.add_argument("--reduce", action="store_true",
                   help="reduce failures: one per seed, class and stage, distinct messages first")
    r.add_argument("--reduce-max", type=int, default=6,
                   help="at most this many reductions (default 6)")
    r.add_argument("--keep", action="store_true", help="keep the work directory of passing seeds")
    r.add_argument("--verbose", "-v", action="store_true", help="print each failure when not on a TTY")
    common(r)
    d = sub.add_parser("reduce", help="reduce the failure of a seed under a configuration")
    d.add_argument("seed", type=int)
    d.add_argument("--config", required=True, choices=list(CONFIGS))
    d.add_argument("--class", dest="klass", choices=CLASSES,
                   help="class to keep (default: the one the seed shows)")
    d.add_argument("--stage", help="stage to keep (run, emit-spirv, spirv-val, emit-ptx, ptxas)")
    common(d)
    args = ap.parse_args(argv)
    if args.cmd == "gen":
        return cmd_gen(args)
    if not os.path.exists(args.coro_run):
        for _ in range(10):  # the build directory may be in the middle of a rebuild
            time.sleep(30)
            if os.path.exists(args.coro_run):
                break
    if args.cmd == "run":
        args.configs = [c.strip() for c in args.configs.split(",") if c.strip()]
        bad = [c for c in args.configs if c not in CONFIGS]
        if bad:
            ap.error("unknown configuration(s) %s (known: %s)" % (", ".join(bad), ", ".join(CONFIGS)))
        args.out = os.path.abspath(args.out)
        return cmd_run(args)
    args.out = os.path.abspath(args.out)
    if args.klass and not args.stage:
        args.stage = {"invalid-code": "spirv-val"}.get(args.klass, "run")
    return cmd_reduce(args)
