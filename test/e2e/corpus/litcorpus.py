# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The lit test format of test/e2e/corpus (see lit.local.cfg there): one
test per program of the e2e corpus and suite."""

import importlib.util
import os
import shutil
import tempfile
import types

import lit.Test
import lit.formats

spec = importlib.util.spec_from_file_location(
    "run_corpus", os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "run-corpus.py"))
run_corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_corpus)

CHECK = ["vulkan"]
SUITES = []


def suite(name, mode, features, args, filter=""):
    SUITES.append((name, mode, features, args, filter))


# Every scheduler on Vulkan (lavapipe without a GPU), with the Khronos
# validation layer; --check compares every buffer with the mega-kernel.
suite("vulkan/megakernel", "check", CHECK,
      ["--scheduler=megakernel", "--validate"])
# The mega-kernel against the CPU reference (--check=cpu), which shares
# none of the passes the mega-kernel's code takes: a bug of the front half
# (inlining, yields, handles) shows here; every suite above compares the
# split with the mega-kernel.
suite("vulkan/megakernel-cpu-reference", "check-cpu", CHECK,
      ["--scheduler=megakernel", "--validate"])
suite("vulkan/state-machine", "check", CHECK,
      ["--scheduler=state-machine", "--validate"])
# Bounded steps: frames go to global memory and back between launches, after
# one subroutine (every suspension point crosses a launch) or three.
suite("vulkan/state-machine-1-step", "check", CHECK,
      ["--scheduler=state-machine", "--validate", "--state-machine-steps=1"])
suite("vulkan/state-machine-3-steps", "check", CHECK,
      ["--scheduler=state-machine", "--validate", "--state-machine-steps=3"])
# coro-run dispatches by fall-through on a CPU device (lavapipe), so the
# suites above run that; the switch (every GPU's default) here.
suite("vulkan/state-machine-switch", "check", CHECK,
      ["--scheduler=state-machine", "--validate", "--fall-through=false"])
# The wavefront options that change what the kernels do: AoSoA frames (tiles
# of 32 slots), one slot per instance; AoS, 3 slots (many in-place refills),
# compaction below 50 %; AoSoA, 37 slots (the second tile partial),
# compaction below 50 %; SoA, 1000 slots, compaction below 90 %, only the
# largest queue each round, refill below half; AoS, one slot, 64 rounds per
# submission.
suite("vulkan/wavefront", "check", CHECK,
      ["--scheduler=wavefront", "--validate"])
suite("vulkan/wavefront-aos-3-slots", "check", CHECK,
      ["--scheduler=wavefront", "--validate", "--layout=aos", "--capacity=3",
       "--compact-below=50"])
suite("vulkan/wavefront-aosoa-37-slots", "check", CHECK,
      ["--scheduler=wavefront", "--validate", "--capacity=37",
       "--compact-below=50"])
suite("vulkan/wavefront-most-first", "check", CHECK,
      ["--scheduler=wavefront", "--validate", "--layout=soa",
       "--capacity=1000", "--compact-below=90", "--order=most-first",
       "--refill=half"])
suite("vulkan/wavefront-aos-1-slot", "check", CHECK,
      ["--scheduler=wavefront", "--validate", "--layout=aos", "--capacity=1",
       "--rounds-per-check=64"])
# Recorded rounds (--replay-rounds): one round per submission over 7 slots,
# every submission after the first a command buffer submitted again.
suite("vulkan/wavefront-replay", "check", CHECK,
      ["--scheduler=wavefront", "--validate", "--capacity=7",
       "--rounds-per-check=1", "--replay-rounds"])
# The queue design's appends: one atomic per slot instead of per subgroup
# (the default where the device allows), 5 slots; and per subgroup with
# 12-thread workgroups, whose second subgroup (of 8 on lavapipe) is partial.
suite("vulkan/wavefront-lane-appends", "check", CHECK,
      ["--scheduler=wavefront", "--validate", "--capacity=5",
       "--wavefront-subgroup-appends=false"])
suite("vulkan/wavefront-12-thread-workgroups", "check", CHECK,
      ["--scheduler=wavefront", "--validate", "--capacity=50",
       "--wavefront-workgroup-size=12"])
# Grid-stride subroutine kernels (what CUDA runs): one workgroup of 4
# threads strides over each queue, 7 slots; with both designs.
suite("vulkan/wavefront-grid-stride", "check", CHECK,
      ["--scheduler=wavefront", "--validate", "--capacity=7",
       "--wavefront-grid-stride", "--wavefront-stride-workgroups=1",
       "--wavefront-workgroup-size=4"])
# The tail kernel from the second round on (every round once the grid is
# exhausted and any instance returned), with 9 slots (refills before it) and
# with grid-stride kernels.
suite("vulkan/wavefront-tail", "check", CHECK,
      ["--scheduler=wavefront", "--validate", "--capacity=9",
       "--wavefront-tail-below=100"])
suite("vulkan/wavefront-tail-grid-stride", "check", CHECK,
      ["--scheduler=wavefront", "--validate", "--capacity=7",
       "--wavefront-tail-below=100", "--wavefront-grid-stride",
       "--wavefront-stride-workgroups=1", "--wavefront-workgroup-size=4"])
suite("vulkan/wavefront-classify-grid-stride", "check", CHECK,
      ["--scheduler=wavefront", "--validate", "--capacity=7",
       "--wavefront-design=classify", "--wavefront-grid-stride",
       "--wavefront-stride-workgroups=1", "--wavefront-workgroup-size=4"])
# Queues sorted by an integer promise, on the programs that have one: the
# queue design (the default) in each layout, with the tail kernel and with
# grid-stride kernels, and the classify design.
for name, options in [
        ("aosoa", ["--layout=aosoa"]), ("soa", ["--layout=soa"]),
        ("aos", ["--layout=aos"]),
        ("tail", ["--wavefront-tail-below=100"]),
        ("grid-stride", ["--wavefront-grid-stride",
                         "--wavefront-stride-workgroups=1",
                         "--wavefront-workgroup-size=4"]),
        ("classify", ["--wavefront-design=classify"])]:
    sorted_by = "vulkan/wavefront-sorted-" + name
    common = ["--scheduler=wavefront", "--validate"] + options
    suite(sorted_by, "check", CHECK, common + [
        "--capacity=17", "--sort-by=material", "--hint-buckets=8"],
        filter="material-sort")
    suite(sorted_by, "check", CHECK, common + [
        "--sort-by=steps", "--hint-buckets=4"], filter="promises.mlir")
    suite(sorted_by, "check", CHECK, common + [
        "--capacity=9", "--sort-by=kind", "--hint-buckets=16"],
        filter="promised-values")
    suite(sorted_by, "check", CHECK, common + [
        "--capacity=30", "--sort-by=__yielded_value"], filter="generator")
# The persistent-threads scheduler: the defaults; AoS, and AoSoA (whole tiles
# of 32 slots), with most frames in the global memory extension; 3 slots and
# 64 threads; one thread per
# workgroup; 48-thread workgroups with a few shared slots; one resident
# thread with an AoS extension; frame swapping, SoA with one subgroup per
# workgroup and AoS with 64 threads (18 and 20 of the corpus's coroutines
# swap frames there, 2026-11-27).
suite("vulkan/persistent", "check", CHECK,
      ["--scheduler=persistent", "--validate"])
suite("vulkan/persistent-switch", "check", CHECK,
      ["--scheduler=persistent", "--validate", "--fall-through=false"])
suite("vulkan/persistent-aos-extension", "check", CHECK,
      ["--scheduler=persistent", "--validate", "--layout=aos",
       "--persistent-batch=100", "--persistent-shared-memory=2048"])
suite("vulkan/persistent-aosoa-extension", "check", CHECK,
      ["--scheduler=persistent", "--validate", "--layout=aosoa",
       "--persistent-batch=100", "--persistent-shared-memory=2048"])
suite("vulkan/persistent-3-slots", "check", CHECK,
      ["--scheduler=persistent", "--validate", "--persistent-batch=3",
       "--persistent-threads=64"])
suite("vulkan/persistent-1-thread-workgroups", "check", CHECK,
      ["--scheduler=persistent", "--validate", "--persistent-workgroup-size=1",
       "--persistent-batch=3", "--persistent-threads=2"])
suite("vulkan/persistent-48-thread-workgroups", "check", CHECK,
      ["--scheduler=persistent", "--validate",
       "--persistent-workgroup-size=48", "--persistent-batch=500",
       "--persistent-shared-memory=6400", "--persistent-threads=96"])
suite("vulkan/persistent-1-thread", "check", CHECK,
      ["--scheduler=persistent", "--validate", "--layout=aos",
       "--persistent-batch=64", "--persistent-shared-memory=1024",
       "--persistent-threads=1"])
suite("vulkan/persistent-swap-frames", "check", CHECK,
      ["--scheduler=persistent", "--validate", "--persistent-batch=100",
       "--persistent-shared-memory=3072", "--persistent-swap-frames"])
suite("vulkan/persistent-swap-frames-64-threads", "check", CHECK,
      ["--scheduler=persistent", "--validate", "--layout=aos",
       "--persistent-workgroup-size=64", "--persistent-batch=256",
       "--persistent-shared-memory=8192", "--persistent-swap-frames"])

# --check-bounds finds no violation in the corpus and changes no output,
# under every scheduler.
for scheduler in ["megakernel", "state-machine", "wavefront", "persistent"]:
    suite("vulkan/check-bounds/" + scheduler, "bounds", CHECK,
          ["--scheduler=" + scheduler, "--validate"])

# --profile-lanes changes no output, and its counts agree with the run,
# under the schedulers it runs under (coro-run refuses the others).
for name, args in [("megakernel", ["--scheduler=megakernel"]),
                   ("state-machine-1-step", ["--scheduler=state-machine",
                                             "--state-machine-steps=1"]),
                   ("wavefront", ["--scheduler=wavefront"]),
                   ("wavefront-grid-stride",
                    ["--scheduler=wavefront", "--wavefront-grid-stride",
                     "--wavefront-stride-workgroups=1",
                     "--wavefront-workgroup-size=4", "--capacity=7"])]:
    suite("vulkan/profile-lanes/" + name, "profile", CHECK,
          args + ["--validate"])

# The same schedulers on the CUDA backend, where a driver is present.
for name, args in [
        ("megakernel", ["--scheduler=megakernel"]),
        ("state-machine", ["--scheduler=state-machine"]),
        ("state-machine-2-steps", ["--scheduler=state-machine",
                                   "--state-machine-steps=2"]),
        ("wavefront", ["--scheduler=wavefront"]),
        ("wavefront-aos-3-slots", ["--scheduler=wavefront", "--layout=aos",
                                   "--capacity=3", "--compact-below=50"]),
        ("wavefront-soa-37-slots", ["--scheduler=wavefront", "--layout=soa",
                                    "--capacity=37"]),
        ("persistent", ["--scheduler=persistent"]),
        ("persistent-aos-extension",
         ["--scheduler=persistent", "--layout=aos", "--persistent-batch=100",
          "--persistent-shared-memory=2048"]),
        ("state-machine-fall-through", ["--scheduler=state-machine",
                                        "--fall-through"]),
        ("persistent-fall-through", ["--scheduler=persistent",
                                     "--fall-through"])]:
    suite("cuda/" + name, "check", ["cuda-driver"], ["--backend=cuda"] + args)

# spirv-val accepts the SPIR-V of every scheduler for Vulkan 1.2.
for name, args, filter in [
        ("megakernel", ["--scheduler=megakernel"], ""),
        ("state-machine", ["--scheduler=state-machine"], ""),
        ("state-machine-steps", ["--scheduler=state-machine",
                                 "--state-machine-steps=2"], ""),
        ("wavefront", ["--scheduler=wavefront"], ""),
        ("wavefront-sorted-aos", ["--scheduler=wavefront", "--layout=aos",
                                  "--sort-by=material"], "material-sort"),
        ("persistent", ["--scheduler=persistent"], ""),
        ("persistent-aos-extension",
         ["--scheduler=persistent", "--layout=aos", "--persistent-batch=100",
          "--persistent-shared-memory=2048"], ""),
        ("persistent-aosoa-extension",
         ["--scheduler=persistent", "--layout=aosoa", "--persistent-batch=100",
          "--persistent-shared-memory=2048"], ""),
        ("megakernel-check-bounds", ["--scheduler=megakernel",
                                     "--check-bounds"], ""),
        ("wavefront-check-bounds", ["--scheduler=wavefront",
                                    "--check-bounds"], ""),
        ("persistent-check-bounds", ["--scheduler=persistent",
                                     "--check-bounds"], ""),
        ("state-machine-fall-through", ["--scheduler=state-machine",
                                        "--fall-through"], ""),
        ("persistent-fall-through", ["--scheduler=persistent",
                                     "--fall-through"], "")]:
    suite("spirv-val/" + name, "spirv-val", ["spirv-val"], args, filter)

# ptxas accepts the PTX of every scheduler, for sm_75 (the oldest CUDA 13
# supports), sm_80 and sm_90.
for chip in ["sm_75", "sm_80", "sm_90"]:
    for name, args, filter in [
            ("megakernel", ["--scheduler=megakernel"], ""),
            ("state-machine", ["--scheduler=state-machine"], "")]:
        suite("ptxas/%s/%s" % (chip, name), "ptxas", ["ptxas"],
              ["--chip=" + chip] + args, filter)
for chip in ["sm_75", "sm_90"]:
    for name, args, filter in [
            ("state-machine-steps", ["--scheduler=state-machine",
                                     "--state-machine-steps=2"], ""),
            ("wavefront-aos", ["--scheduler=wavefront", "--layout=aos"], ""),
            ("wavefront-sorted", ["--scheduler=wavefront",
                                  "--sort-by=material"], "material-sort"),
            ("wavefront-sorted-classify",
             ["--scheduler=wavefront", "--sort-by=material",
              "--wavefront-design=classify"], "material-sort"),
            ("persistent", ["--scheduler=persistent"], ""),
            ("persistent-aos-extension",
             ["--scheduler=persistent", "--layout=aos",
              "--persistent-batch=100", "--persistent-shared-memory=2048"],
             ""),
            ("state-machine-fall-through", ["--scheduler=state-machine",
                                            "--fall-through"], ""),
            ("persistent-fall-through", ["--scheduler=persistent",
                                         "--fall-through"], "")]:
        suite("ptxas/%s/%s" % (chip, name), "ptxas", ["ptxas"],
              ["--chip=" + chip] + args, filter)


# ... and with --check-bounds or --profile-lanes (redux.sync: sm_80 and
# newer) under every scheduler.
for scheduler in ["megakernel", "state-machine", "wavefront", "persistent"]:
    suite("ptxas/sm_90/%s-check-bounds" % scheduler, "ptxas", ["ptxas"],
          ["--chip=sm_90", "--scheduler=" + scheduler, "--check-bounds"])
    suite("ptxas/sm_80/%s-profile-lanes" % scheduler, "ptxas", ["ptxas"],
          ["--chip=sm_80", "--scheduler=" + scheduler, "--profile-lanes"])


class CorpusFormat(lit.formats.TestFormat):
    """One test per (suite, manifest entry)."""

    def getTestsInDirectory(self, test_suite, path_in_suite, lit_config,
                            local_config):
        if path_in_suite != ("e2e", "corpus"):
            return
        manifest = os.path.join(local_config.coro_src_root, "test", "e2e",
                                "corpus.txt")
        try:
            entries = run_corpus.read_manifest(manifest)
        except SystemExit:  # run-corpus printed why.
            lit_config.fatal("the e2e corpus manifest %s is unusable" %
                             manifest)
        for name, mode, features, args, filter in SUITES:
            for number, path, coro, entry_args in entries:
                if filter not in " ".join([path] + entry_args):
                    continue
                test = lit.Test.Test(
                    test_suite,
                    path_in_suite + tuple(name.split("/")) +
                    ("%s:%s" % (os.path.basename(path), coro),),
                    local_config)
                test.corpus = (mode, features, args, path, coro, entry_args)
                yield test

    def execute(self, test, lit_config):
        mode, features, args, path, coro, entry_args = test.corpus
        missing = [f for f in features
                   if f not in test.config.available_features]
        if missing:
            return lit.Test.UNSUPPORTED, "missing feature: " + ", ".join(
                missing)
        tools = test.config.coro_tools_dir
        options = types.SimpleNamespace(
            coro_run=os.path.join(tools, "coro-run"),
            spirv_val=shutil.which("spirv-val") or "spirv-val",
            ptxas=getattr(test.config, "coro_ptxas", None) or "ptxas",
            chip=next((a[len("--chip="):] for a in args
                       if a.startswith("--chip=")), "sm_90"),
            timeout=run_corpus.DEFAULT_TIMEOUT)
        extra = [a for a in args if not a.startswith("--chip=")]
        workdir = tempfile.mkdtemp(prefix="corpus-")
        try:
            command = [path] + entry_args + extra
            code, log = run_corpus.MODES[mode](
                options, os.path.join(test.config.coro_src_root, path), coro,
                entry_args + extra, os.path.join(workdir, coro))
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        header = "%s %s\n" % (mode, " ".join(command))
        return (lit.Test.PASS if code == 0 else lit.Test.FAIL,
                header + "exit code %d\n%s" % (code, log))

