# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Running one program: the oracle, coro-run under each configuration,
spirv-val and ptxas, and the classification of what went wrong."""

import os
import shlex
import shutil
import signal
import struct
import subprocess

from . import emit
from .oracle import emit_oracle
from .ptx import check_file as narrow_float_stores
from .model import Promise, walk_stmts

LLVM_BIN = os.environ.get("CORO_FUZZ_LLVM_BIN", "/usr/lib/llvm-22/bin")
LLVM_LIB = os.environ.get("CORO_FUZZ_LLVM_LIB", "/usr/lib/llvm-22/lib")
ORACLE_PASSES = ["--convert-scf-to-cf", "--convert-vector-to-llvm",
                 "--expand-strided-metadata", "--finalize-memref-to-llvm",
                 "--convert-math-to-llvm", "--convert-to-llvm",
                 "--reconcile-unrealized-casts"]

# name -> (scheduler, options). Short, stable names.
CONFIGS = {
    "mk": ("megakernel", []),
    # Without the termination checks, whose store in every scf.while
    # condition region makes coro-spirv-structurize-while move them all: its
    # rule for the condition regions themselves (lavapipe's loop-exit bug).
    "mk-nochecks": ("megakernel", ["--termination-checks=false"]),
    "sm": ("state-machine", []),
    # Bounded steps: every frame goes to global memory and back between
    # launches; fall-through named, so that its PTX (--emit has no device
    # default) and CUDA runs get it too.
    "sm-steps": ("state-machine", ["--state-machine-steps=2",
                                   "--fall-through"]),
    # coro-run dispatches by fall-through on a CPU device (lavapipe): the
    # switch, every GPU's default, here.
    "sm-switch": ("state-machine", ["--fall-through=false"]),
    # One launch, every GPU's default: on lavapipe coro-run bounds the
    # state machine's steps by its loop passes (bound-steps).
    "sm-one": ("state-machine", ["--state-machine-steps=0"]),
    "wf": ("wavefront", []),
    "wf-aos3": ("wavefront", ["--layout=aos", "--capacity=3"]),
    # SoA (the default is aosoa: tiles of 32 slots), 37 slots.
    "wf-soa37": ("wavefront", ["--layout=soa", "--capacity=37"]),
    # The queue design at one slot (the free ring wraps every round) and
    # the classify design on its own (no compaction or sort picks it).
    "wf-1": ("wavefront", ["--capacity=1"]),
    "wf-classify": ("wavefront", ["--wavefront-design=classify"]),
    # Grid-stride kernels (what CUDA runs): one 4-thread workgroup strides.
    "wf-stride": ("wavefront", ["--wavefront-grid-stride",
                                "--wavefront-stride-workgroups=1",
                                "--wavefront-workgroup-size=4"]),
    # One atomic per slot rather than per subgroup (the default).
    "wf-lane": ("wavefront", ["--wavefront-subgroup-appends=false"]),
    "wf-compact": ("wavefront", ["--compact-below=50"]),
    # Queues sorted by the promise p0: the queue design's scatter (the
    # default) and the classify design's multi-split.
    "wf-sort": ("wavefront", ["--sort-by=p0"]),
    "wf-sort-classify": ("wavefront", ["--sort-by=p0",
                                       "--wavefront-design=classify"]),
    # The tail kernel in every round once the grid is exhausted and an
    # instance returned.
    "wf-tail": ("wavefront", ["--wavefront-tail-below=100"]),
    # One round per submission over 3 slots, every submission after the
    # first a recording launched again (a Vulkan command buffer, a CUDA
    # graph).
    "wf-replay": ("wavefront", ["--replay-rounds", "--rounds-per-check=1",
                                "--capacity=3"]),
    "pt": ("persistent", []),
    "pt-switch": ("persistent", ["--fall-through=false"]),
    "pt-aos-small": ("persistent", ["--layout=aos", "--persistent-batch=8",
                                    "--persistent-shared-memory=1024"]),
    # AoSoA: a tile of 32 slots in workgroup memory where one fits beside
    # the scheduler's arrays, the other 8 (a padded tile) in the extension,
    # frames swapped between them.
    "pt-aosoa": ("persistent", ["--layout=aosoa", "--persistent-batch=40",
                                "--persistent-shared-memory=2048",
                                "--persistent-swap-frames"]),
    "pt-few": ("persistent", ["--persistent-batch=4", "--persistent-threads=8",
                              "--persistent-workgroup-size=4",
                              "--fall-through"]),
    # Frame swapping: 16 slots, as many frames in workgroup memory as 640
    # bytes hold beside the scheduler's arrays (none for large frames: no
    # swapping then).
    "pt-swap": ("persistent", ["--persistent-batch=16",
                               "--persistent-shared-memory=640",
                               "--persistent-swap-frames"]),
    # Bounded steps (lavapipe's default is 1024 a launch): every workgroup
    # parks its slots after each step and takes them back in the next
    # launch; with frames in workgroup memory, in the extension and
    # swapped between them.
    "pt-steps": ("persistent", ["--persistent-steps=1"]),
    "pt-swap-steps": ("persistent", ["--layout=aosoa", "--persistent-batch=40",
                                     "--persistent-shared-memory=2048",
                                     "--persistent-swap-frames",
                                     "--persistent-steps=2"]),
    # Bounds checks must neither fire on the generator's in-bounds accesses
    # nor change a result.
    "wf-bounds": ("wavefront", ["--check-bounds"]),
    "pt-bounds": ("persistent", ["--check-bounds"]),
    # The lane profile's reductions and counters must not change a result
    # either (nor make invalid code).
    "wf-profile": ("wavefront", ["--profile-lanes"]),
    "sm-profile": ("state-machine", ["--profile-lanes",
                                     "--state-machine-steps=1"]),
    # Host programs: main launches the entry (coro-host-to-llvm, mlir-runner
    # and the runtime wrappers); options are the pipeline's.
    "host-mk": ("megakernel", []),
    "host-sm-steps": ("state-machine", ["scheduler-options=state-machine-steps=2"]),
    "host-wf": ("wavefront", []),
    "host-pt": ("persistent", []),
}
PTX_CONFIGS = {"mk", "sm", "sm-steps", "wf", "pt"}
CLASSES = ["crash", "rejected", "invalid-code", "reference-wrong",
           "scheduler-wrong", "timeout", "oracle-error"]
CRASH_MARKS = ["PLEASE submit a bug report", "Stack dump", "Segmentation fault",
               "Assertion", "UNREACHABLE", "LLVM ERROR"]
VALIDATION_MARKS = ["Validation Error", "VUID-", "spirv-val", "is not valid SPIR-V",
                    "validation"]


def find_ptxas():
    return shutil.which("ptxas") or shutil.which(
        "ptxas", path=os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin"))


def applicable(prog, config):
    if config in ("wf-sort", "wf-sort-classify"):
        # A promise at the top level of the entry (one in dead code may be
        # folded away, and then there is no field to sort by).
        return any(isinstance(s, Promise) and s.name == "p0" and s.ty == "i32"
                   for s in prog.entry.body)
    return True


class Cmd:
    def __init__(self, argv, rc, out, timed_out=False, sig=None):
        self.argv, self.rc, self.out, self.timed_out, self.sig = argv, rc, out, timed_out, sig

    def line(self):
        return " ".join(shlex.quote(a) for a in self.argv)


def run_cmd(argv, timeout, stdin=None, cwd=None):
    """Runs argv; waits (up to 5 minutes) for a tool that is missing or
    being relinked (the build directory may be rebuilt concurrently)."""
    import time
    for attempt in range(11):
        try:
            return _run_cmd(argv, timeout, stdin, cwd)
        except OSError as e:
            if attempt == 10:
                return Cmd(argv, 127, "coro-fuzz: cannot run %s: %s" % (argv[0], e))
            time.sleep(30)


def _run_cmd(argv, timeout, stdin=None, cwd=None):
    try:
        p = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, cwd=cwd, start_new_session=True)
        out = p.stdout.decode("utf-8", "replace")
        sig = -p.returncode if p.returncode < 0 else None
        return Cmd(argv, p.returncode, out, sig=sig)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return Cmd(argv, None, out, timed_out=True)


def is_crash(cmd):
    if cmd.sig is not None or (cmd.rc is not None and cmd.rc >= 128):
        return True
    return any(m in cmd.out for m in CRASH_MARKS)


class Result:
    """The outcome of one (program, configuration) run."""

    def __init__(self, config, klass=None, stage=None, detail=""):
        self.config, self.klass, self.stage, self.detail = config, klass, stage, detail
        self.cmds = []

    @property
    def ok(self):
        return self.klass is None

    def key(self):
        return (self.config, self.klass, self.stage)


def is_host_config(config):
    return config.startswith("host-")


class Runner:
    def __init__(self, coro_run, timeout=60, ptxas=None, spirv_val=None,
                 backend="vulkan", coro_opt=None, wrappers=None):
        self.coro_run = coro_run
        self.coro_opt = coro_opt
        self.wrappers = wrappers
        self.backend = backend
        self.timeout = timeout
        self.ptxas = ptxas
        self.spirv_val = spirv_val

    # ---------------------------------------------------------- oracle
    def oracle(self, prog, wd):
        """Returns (buffers, [Cmd]) or (None, cmds) if the oracle failed."""
        path = os.path.join(wd, "oracle.mlir")
        with open(path, "w") as f:
            f.write(emit_oracle(prog))
        opt = run_cmd([os.path.join(LLVM_BIN, "mlir-opt"), path] + ORACLE_PASSES, self.timeout)
        if opt.rc != 0:
            return None, [opt]
        libs = ",".join(os.path.join(LLVM_LIB, l) for l in
                        ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"])
        runner_argv = [os.path.join(LLVM_BIN, "mlir-runner"), "-e", "main",
                       "--entry-point-result=void", "--shared-libs=" + libs]
        try:
            p = subprocess.run(runner_argv, input=opt.out.encode(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=self.timeout)
            run = Cmd(runner_argv, p.returncode, p.stdout.decode() + p.stderr.decode())
        except subprocess.TimeoutExpired:
            return None, [opt, Cmd(runner_argv, None, "timeout", timed_out=True)]
        opt.out = "(lowered module)"
        if run.rc != 0:
            return None, [opt, run]
        bufs = parse_printed(p.stdout.decode())
        if len(bufs) != 4:
            return None, [opt, run]
        return bufs, [opt, run]

    # ---------------------------------------------------------- coro-run
    def base_argv(self, prog, wd, config):
        sched, opts = CONFIGS[config]
        return ([self.coro_run, os.path.join(wd, "prog.mlir")]
                + emit.run_args(prog, os.path.join(wd, "table.bin"))
                + ["--scheduler=" + sched, "--backend=" + self.backend] + opts)

    def write_program(self, prog, wd):
        os.makedirs(wd, exist_ok=True)
        with open(os.path.join(wd, "prog.mlir"), "w") as f:
            f.write(emit.emit_coro(prog))
        with open(os.path.join(wd, "table.bin"), "wb") as f:
            f.write(emit.table_bytes(prog))

    def classify_tool_failure(self, cmd):
        if cmd.timed_out:
            return "timeout"
        if is_crash(cmd):
            return "crash"
        if any(m in cmd.out for m in VALIDATION_MARKS):
            return "invalid-code"
        return "rejected"

    def run_host(self, prog, wd, config, oracle):
        """Runs the program as a host program: coro-host-to-llvm, then
        mlir-runner with the runtime wrappers (Vulkan validation on);
        returns (Result, printed buffers or None)."""
        res = Result(config)
        sched, opts = CONFIGS[config]
        path = os.path.join(wd, config + ".mlir")
        with open(path, "w") as f:
            f.write(emit.emit_host(prog, sched))
        target = "spirv" if self.backend == "vulkan" else "sm_70"
        pipeline = "--coro-host-to-llvm=" + " ".join(
            ["scheduler=" + sched, "target=" + target] + opts)
        opt = run_cmd([self.coro_opt, path, pipeline], self.timeout)
        res.cmds.append(opt)
        if opt.rc != 0:
            res.klass, res.stage = self.classify_tool_failure(opt), "compile"
            res.detail = last_lines(opt.out)
            return res, None
        libs = ",".join([self.wrappers] + [os.path.join(LLVM_LIB, l) for l in
                         ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]])
        runner_argv = ["env", "COROGPU_VULKAN_VALIDATION=1",
                       os.path.join(LLVM_BIN, "mlir-runner"), "-e", "main",
                       "--entry-point-result=void", "--shared-libs=" + libs]
        run = run_cmd(runner_argv, self.timeout, stdin=opt.out.encode())
        opt.out = "(lowered module)"
        res.cmds.append(run)
        if run.rc != 0:
            res.klass, res.stage = self.classify_tool_failure(run), "run"
            res.detail = last_lines(run.out)
            return res, None
        bufs = parse_printed(run.out)
        if len(bufs) != 4:
            res.klass, res.stage, res.detail = "rejected", "run", "no printed buffers"
            return res, None
        diff = describe_diff(oracle, bufs) if oracle is not None else ""
        if diff:
            res.klass, res.stage, res.detail = "scheduler-wrong", "run", diff
        return res, bufs

    def run_config(self, prog, wd, config, oracle, mk_bufs, stages=("run", "spirv", "ptx")):
        """Runs one configuration; returns (Result, output buffers or None)."""
        if is_host_config(config):
            return self.run_host(prog, wd, config, oracle)
        res = Result(config)
        argv = self.base_argv(prog, wd, config)
        bufs = None
        if "run" in stages:
            outdir = os.path.join(wd, "out-" + config)
            shutil.rmtree(outdir, ignore_errors=True)
            cmd = run_cmd(argv + ["--check", "--quiet", "--output-dir=" + outdir], self.timeout)
            res.cmds.append(cmd)
            check_failed = cmd.rc == 1 and "--check FAILED" in cmd.out
            if cmd.rc != 0 and not check_failed:
                res.klass, res.stage = self.classify_tool_failure(cmd), "run"
                res.detail = last_lines(cmd.out)
                return res, None
            bufs = read_buffers(outdir, prog)
            if bufs is None:
                res.klass, res.stage, res.detail = "rejected", "run", "no output buffers"
                return res, None
            if oracle is not None:
                diff = describe_diff(oracle, bufs)
                if config == "mk":
                    if diff or check_failed:
                        res.klass, res.stage, res.detail = "reference-wrong", "run", diff
                elif diff or check_failed:
                    if not diff:
                        res.klass = "reference-wrong"
                        res.detail = "matches the oracle but --check failed: the mega-kernel is wrong"
                    elif mk_bufs is not None and mk_bufs != oracle and bufs == mk_bufs:
                        res.klass = "reference-wrong"
                        res.detail = "agrees with the (wrong) mega-kernel: " + diff
                    else:
                        res.klass = "scheduler-wrong"
                        res.detail = diff + ("" if not check_failed else " (--check failed)")
                    res.stage = "run"
            elif check_failed:
                res.klass, res.stage, res.detail = "scheduler-wrong", "run", "--check failed"
            if res.klass:
                return res, bufs
        if "spirv" in stages and self.spirv_val:
            spv = os.path.join(wd, config + ".spv")
            cmd = run_cmd(argv + ["--emit=spirv", "--emit-to=" + spv], self.timeout)
            res.cmds.append(cmd)
            if cmd.rc != 0:
                res.klass, res.stage, res.detail = self.classify_tool_failure(cmd), "emit-spirv", last_lines(cmd.out)
                return res, bufs
            val = run_cmd([self.spirv_val, "--target-env", "vulkan1.2", spv], self.timeout)
            res.cmds.append(val)
            if val.rc != 0:
                res.klass, res.stage, res.detail = "invalid-code", "spirv-val", last_lines(val.out)
                return res, bufs
        if "ptx" in stages and self.ptxas and config in PTX_CONFIGS:
            ptx = os.path.join(wd, config + ".ptx")
            cmd = run_cmd(argv + ["--emit=ptx", "--chip=sm_90", "--emit-to=" + ptx], self.timeout)
            res.cmds.append(cmd)
            if cmd.rc != 0:
                res.klass, res.stage, res.detail = self.classify_tool_failure(cmd), "emit-ptx", last_lines(cmd.out)
                return res, bufs
            val = run_cmd([self.ptxas, "-arch=sm_90", ptx, "-o", os.devnull], self.timeout)
            res.cmds.append(val)
            if val.rc != 0:
                res.klass, res.stage, res.detail = "invalid-code", "ptxas", last_lines(val.out)
                return res, bufs
            narrowed = narrow_float_stores(ptx)
            if narrowed:
                res.klass, res.stage, res.detail = "invalid-code", "ptxas", narrowed[0]
                return res, bufs
        return res, bufs

    def evaluate(self, prog, wd, configs, need_oracle=True, stages=("run", "spirv", "ptx")):
        """Runs the oracle and the configurations; returns a list of Results
        (one per configuration, or a single oracle-error)."""
        self.write_program(prog, wd)
        oracle = None
        if need_oracle:
            oracle, cmds = self.oracle(prog, wd)
            if oracle is None:
                r = Result("oracle", "oracle-error", "oracle", last_lines(cmds[-1].out))
                r.cmds = cmds
                return [r]
        results = []
        mk_bufs = None
        order = sorted(configs, key=lambda c: c != "mk")
        for c in order:
            if not applicable(prog, c):
                continue
            res, bufs = self.run_config(prog, wd, c, oracle, mk_bufs, stages)
            if c == "mk":
                mk_bufs = bufs
            results.append(res)
        return results


def last_lines(text, n=12):
    lines = [l for l in text.splitlines() if l.strip()]
    return "\n".join(lines[-n:])


def parse_printed(text):
    bufs = []
    for part in text.split("data =")[1:]:
        start = part.index("[")
        end = part.index("]", start)
        body = part[start + 1:end].replace("\n", " ")
        bufs.append([int(x) for x in body.replace(",", " ").split()])
    return bufs


def read_buffers(outdir, prog):
    bufs = []
    for i, (ty, n, _) in enumerate(emit.buffer_specs(prog, "")):
        path = os.path.join(outdir, "buffer%d.bin" % i)
        try:
            data = open(path, "rb").read()
        except OSError:
            return None
        fmt = {"i32": "i", "i64": "q"}[ty]
        if len(data) != n * struct.calcsize(fmt):
            return None
        bufs.append(list(struct.unpack("<%d%s" % (n, fmt), data)))
    return bufs


BUFFER_NAMES = ["table", "out32", "out64", "acc"]


def describe_diff(expected, got):
    for i, (e, g) in enumerate(zip(expected, got)):
        if e != g:
            bad = [k for k in range(min(len(e), len(g))) if e[k] != g[k]]
            k = bad[0] if bad else 0
            return "buffer %d (%s): %d of %d elements differ, first at [%d]: expected %s, got %s" % (
                i, BUFFER_NAMES[i], len(bad), len(e), k, e[k] if k < len(e) else "-",
                g[k] if k < len(g) else "-")
    return ""
