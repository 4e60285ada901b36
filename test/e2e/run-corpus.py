#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs every coroutine of the e2e corpus (corpus.txt) through coro-run.

    run-corpus.py [options] [-- extra coro-run arguments]

Modes (--mode):
  check      coro-run FILE ARGS EXTRA --check --quiet: runs the coroutine and
             compares every buffer with the mega-kernel reference (default).
  check-cpu  the same with --check=cpu --tolerance=1e-4, the reference run
             on the CPU apart from the split; a coroutine whose module drives frames with
             handles, which that reference cannot run, passes when coro-run
             refuses it for that reason ("refused (handles)").
  spirv-val  coro-run FILE ARGS EXTRA --emit=spirv, then spirv-val for
             Vulkan 1.2.
  ptxas      coro-run FILE ARGS EXTRA --emit=ptx --chip=C, then ptxas -v,
             printing the registers of the coroutine's kernel; fails on a
             narrow store of a register a float instruction wrote, which
             ptxas miscompiles.
  bounds     coro-run FILE ARGS EXTRA --json, with and without --check-bounds:
             the checks find no violation and change no output (integers
             equal, floats within a relative 1e-5).
  profile    coro-run FILE ARGS EXTRA --profile-lanes --check --json: the
             profiled kernels still match the reference, and the counts agree
             with the run (each instance's lane starts the coroutine once,
             each subroutine ran the instances the scheduler counted, no site
             has more active lanes than its subgroups have, or fewer than one
             per visit).

Prints one `PASS <file> <coro> ...` or `FAIL <file> <coro>` line per entry
(a failure is followed by the tools' output; --times adds the seconds each
took; a command that outlasts --timeout, 300 s by default, is killed and
its entry fails with exit code 124), then
`corpus: N passed, M failed`; exits 1 if an entry failed or fewer than --min
entries ran, and 2 if the manifest is unusable (missing, empty, or naming a
file that does not exist).

Example: run-corpus.py --filter programs/ -- --scheduler=state-machine
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))  # The repository root.
sys.path.insert(0, os.path.join(ROOT, "tools", "coro-fuzz"))
from corofuzz.ptx import check_file as narrow_float_stores  # noqa: E402


def fatal(message):
    print("run-corpus: error: " + message, file=sys.stderr)
    sys.exit(2)


def read_manifest(path):
    """The entries of the manifest: (line number, file, coroutine, args)."""
    if not os.path.isfile(path):
        fatal("no manifest " + path)
    entries = []
    with open(path) as manifest:
        for number, line in enumerate(manifest, 1):
            words = shlex.split(line, comments=True)
            if not words:
                continue
            where = "%s:%d" % (path, number)
            if not os.path.isfile(os.path.join(ROOT, words[0])):
                fatal("%s: no such file %s" % (where, words[0]))
            coro = [w[len("--coro="):] for w in words if w.startswith("--coro=")]
            if len(coro) != 1:
                fatal("%s: name the coroutine with one --coro=NAME" % where)
            entries.append((number, words[0], coro[0], words[1:]))
    if not entries:
        fatal("the manifest %s lists no coroutine" % path)
    return entries


# Seconds one command may take by default (--timeout).
DEFAULT_TIMEOUT = 300.0


def run_separately(options, command):
    """Runs `command`; returns (exit code, stdout, stderr). A command that
    outlasts --timeout (a run that hangs, on a GPU whose driver never ends a
    kernel) is killed and reported with exit code 124, so that it fails its
    entry instead of stopping the whole corpus."""
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE,
                                universal_newlines=True,
                                timeout=options.timeout)
    except OSError as error:
        return 127, "", "%s: %s\n" % (command[0], error)
    except subprocess.TimeoutExpired:
        return 124, "", "run-corpus: timed out after %g s: %s\n" % (
            options.timeout, " ".join(shlex.quote(a) for a in command))
    return result.returncode, result.stdout, result.stderr


def run(options, command):
    """Runs `command`; returns (exit code, stdout and stderr together)."""
    code, out, err = run_separately(options, command)
    return code, out + err


def coro_run(options, path, args):
    return run(options, [options.coro_run, path] + args)


def check(options, path, coro, args, output):
    return coro_run(options, path, args + ["--check", "--quiet"])


# What coro-run --check=cpu says of a program whose frames handles drive.
CPU_REFUSES_HANDLES = "the CPU reference cannot run frames that handles drive"


def check_cpu(options, path, coro, args, output):
    """--check=cpu, floats within a relative 1e-4 (the device's math
    functions and the CPU's libm differ in the last bits: the SDF renderer's
    sines); a program with handles must be refused with its reason (the CPU
    reference runs none), and passes then."""
    code, log = coro_run(options, path, args + ["--check=cpu",
                                                "--tolerance=1e-4", "--quiet"])
    if code != 0 and CPU_REFUSES_HANDLES in log:
        return 0, "refused (handles)"
    return code, log


def same_values(a, b):
    """Whether two buffer values agree (floats within a relative 1e-5)."""
    if isinstance(a, float) or isinstance(b, float):
        return abs(a - b) <= 1e-5 * max(1.0, abs(b))
    return a == b


def bounds(options, path, coro, args, output):
    runs = []
    for flags in ([], ["--check-bounds"]):
        code, out, err = run_separately(
            options, [options.coro_run, path] + args + flags + ["--json"])
        log = out + err
        if code != 0:
            return code, log
        try:
            runs.append(json.loads(out))
        except ValueError:
            return 1, log + "not one JSON object\n"
    plain, checked = runs
    violations = checked.get("bounds_violations", {}).get("count")
    if violations != 0:
        return 1, "--check-bounds found %s violations\n" % violations
    for index, (want, got) in enumerate(zip(plain["buffers"],
                                            checked["buffers"])):
        for element, (a, b) in enumerate(zip(got["values"], want["values"])):
            if not same_values(a, b):
                return 1, ("buffer %d [%d]: %r with --check-bounds, %r "
                           "without\n" % (index, element, a, b))
    if len(plain["buffers"]) != len(checked["buffers"]):
        return 1, "--check-bounds changed the number of buffers\n"
    return 0, ""


def profile(options, path, coro, args, output):
    command = [options.coro_run, path] + args + [
        "--profile-lanes", "--check", "--json", "--quiet"]
    code, out, err = run_separately(options, command)
    log = out + err
    if code != 0:
        return code, log
    try:
        result = json.loads(out)
    except ValueError:
        return 1, log + "not one JSON object\n"
    if result.get("check") is not True:
        return 1, log + "--check did not pass\n"
    lanes = result["lane_profile"]
    subgroup = lanes["subgroup_size"]
    functions = lanes["functions"]
    instances = 1
    for extent in result["grid"]:
        instances *= extent
    problems = []
    if subgroup < 1:
        problems.append("subgroup size %d" % subgroup)
    if functions[0]["executions"] != instances:
        problems.append("%s ran %d lanes, for %d instances" % (
            functions[0]["name"], functions[0]["executions"], instances))
    stats = result.get("wavefront") or result.get("persistent")
    if stats:
        for function, count in zip(functions,
                                   stats["instances_per_subroutine"]):
            if function["executions"] != count:
                problems.append("%s ran %d lanes, the scheduler counted %d "
                                "instances" % (function["name"],
                                               function["executions"], count))
    for site in lanes["sites"]:
        visits, active = site["visits"], site["active_lanes"]
        if not (visits <= active <= visits * subgroup and
                0 <= site["divergent_visits"] <= visits):
            problems.append("%s %s in %s: %d visits, %d active lanes, %d "
                            "divergent" % (site["location"], site["kind"],
                                           site["function"], visits, active,
                                           site["divergent_visits"]))
        if site["kind"] == "entry" and site["divergent_visits"]:
            problems.append("a function entry diverged")
    if problems:
        return 1, "".join(problem + "\n" for problem in problems)
    return 0, ""


def spirv_val(options, path, coro, args, output):
    code, log = coro_run(options, path,
                         args + ["--emit=spirv", "--emit-to=" + output + ".spv"])
    if code == 0:
        code, log = run(options, [options.spirv_val, "--target-env",
                                  "vulkan1.2", output + ".spv"])
    return code, log


def ptxas(options, path, coro, args, output):
    ptx = "%s.%s.ptx" % (output, options.chip)
    code, log = coro_run(options, path, args + [
        "--emit=ptx", "--chip=" + options.chip, "--emit-to=" + ptx])
    if code != 0:
        return code, log
    code, log = run(options, [options.ptxas, "-arch=" + options.chip, "-v", ptx,
                     "-o", os.devnull])
    if code != 0:
        return code, log
    narrowed = narrow_float_stores(ptx)
    if narrowed:
        return 1, log + "".join(problem + "\n" for problem in narrowed)
    # ptxas -v names each kernel, then its stack frame and registers.
    kernels, kernel = {}, None
    for line in log.splitlines():
        entry = re.search(r"Compiling entry function '([^']+)'", line)
        stack = re.search(r"(\d+) bytes stack frame", line)
        used = re.search(r"Used (\d+) registers", line)
        if entry:
            kernel = entry.group(1)
            kernels[kernel] = {}
        elif kernel and (stack or used):
            kernels[kernel]["stack" if stack else "registers"] = int(
                (stack or used).group(1))
    # The coroutine's kernel, with the wavefront scheduler its kernels
    # <coro>__wf_<name>, with the persistent-threads one <coro>__pt.
    mine = sorted(k for k in kernels
                  if k in (coro, coro + "__pt") or k.startswith(coro + "__wf_"))
    if not mine or any("registers" not in kernels[k] for k in mine):
        return 1, log + "no register count for kernel '%s'\n" % coro
    return 0, "%s: %s" % (options.chip, ", ".join(
        "%s%d registers, %d bytes stack" % (
            "" if k == coro else "persistent " if k == coro + "__pt"
            else k[len(coro + "__wf_"):] + " ",
            kernels[k]["registers"], kernels[k].get("stack", 0))
        for k in mine))


MODES = {"check": check, "check-cpu": check_cpu, "spirv-val": spirv_val,
         "ptxas": ptxas, "bounds": bounds, "profile": profile}


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--coro-run",
                        default=os.path.join(ROOT, "build", "bin", "coro-run"))
    parser.add_argument("--manifest", default=os.path.join(HERE, "corpus.txt"))
    parser.add_argument("--mode", choices=sorted(MODES), default="check")
    parser.add_argument("--chip", default="sm_90", help="for --mode=ptxas")
    parser.add_argument("--ptxas", default=shutil.which("ptxas") or
                        "/usr/local/cuda/bin/ptxas")
    parser.add_argument("--spirv-val", default="spirv-val")
    parser.add_argument("--filter", default="",
                        help="only the entries whose line contains this")
    parser.add_argument("--workdir",
                        help="keep generated files here (default: a "
                        "temporary directory, removed at the end)")
    parser.add_argument("--min", type=int, default=1,
                        help="fail if fewer entries than this ran")
    parser.add_argument("--times", action="store_true",
                        help="end each PASS and FAIL line with the seconds "
                        "the entry took")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help="seconds one command may take before it is "
                        "killed and its entry fails (default 300)")
    options = parser.parse_args(argv)

    entries = read_manifest(options.manifest)
    workdir = options.workdir or tempfile.mkdtemp(prefix="corpus-")
    os.makedirs(workdir, exist_ok=True)
    passed = failed = 0
    try:
        for number, path, coro, args in entries:
            if options.filter not in " ".join([path] + args):
                continue
            output = os.path.join(workdir, "%d.%s" % (number, coro))
            start = time.time()
            code, log = MODES[options.mode](
                options, os.path.join(ROOT, path), coro, args + extra, output)
            took = (" (%.2f s)" % (time.time() - start)) if options.times else ""
            if code == 0:
                passed += 1
                summary = (log.strip() if options.mode in ("ptxas", "check-cpu")
                           else "")
                print(("PASS %s %s %s" % (path, coro, summary)).rstrip() + took)
            else:
                failed += 1
                print("FAIL %s %s (exit code %d): %s%s" %
                      (path, coro, code, " ".join(shlex.quote(a) for a in args),
                       took))
                print("".join("  | " + l + "\n" for l in log.splitlines()),
                      end="")
            sys.stdout.flush()
    finally:
        if not options.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    print("corpus: %d passed, %d failed" % (passed, failed))
    if passed + failed < options.min:
        print("run-corpus: error: %d entries ran, fewer than --min %d" %
              (passed + failed, options.min))
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
