# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# -*- Python -*-
# lit configuration of the CoroGPU test suite.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "CoroGPU"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "external"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.coro_obj_root, "test")

config.substitutions.append(("%coro_libs", config.coro_lib_dir))
config.substitutions.append(("%coro_src", config.coro_src_root))
config.substitutions.append(("%coro_tools", config.coro_tools_dir))
# The stock mlir-opt from the LLVM installation, for the plugin tests.
config.substitutions.append(
    ("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))

config.substitutions.append(
    ("%mlir_runner", os.path.join(config.llvm_tools_dir, "mlir-runner")))
config.substitutions.append(("%llvm_lib_dir", config.llvm_lib_dir))

# Execution on the CPU: lower to LLVM and run `main` with mlir-runner.
config.substitutions.append(
    ("%lower_to_llvm",
     "--convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts"))
runner_libs = ",".join(
    os.path.join(config.llvm_lib_dir, lib)
    for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"])
config.substitutions.append(
    ("%run_cpu",
     "%s -e main --entry-point-result=void --shared-libs=%s"
     % (os.path.join(config.llvm_tools_dir, "mlir-runner"), runner_libs)))

# Host programs on the GPU (coro-host-to-llvm): mlir-runner with the CoroGPU
# runtime wrappers, the Khronos validation layer on.
config.substitutions.append(
    ("%run_host",
     "env COROGPU_VULKAN_VALIDATION=1 %s -e main --entry-point-result=void "
     "--shared-libs=%s,%s"
     % (os.path.join(config.llvm_tools_dir, "mlir-runner"),
        os.path.join(config.coro_lib_dir, "libcoro_runtime_wrappers.so"),
        runner_libs)))

# Validators of generated code; tests that need one say REQUIRES and lit
# reports them UNSUPPORTED (with the missing feature) where it is absent.
import shutil
import subprocess
for tool in ["spirv-val", "spirv-dis"]:
    if shutil.which(tool):
        config.available_features.add(tool)
# glslang compiles the GLSL of the driver-only reproducers
# (test/e2e/known/driver).
if shutil.which("glslangValidator"):
    config.available_features.add("glslang")
# An x86 CPU with AVX-512, which lavapipe's JIT uses unless told otherwise
# (test/e2e/known/driver/masked-bit-insert.test).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = next((line.split(":", 1)[1].split() for line in cpuinfo
                      if line.startswith("flags")), [])
    if "avx512f" in flags and "avx512vl" in flags:
        config.available_features.add("avx512")
except OSError:
    pass
# A Vulkan driver (lavapipe where there is no GPU) runs the e2e programs.
import glob
if any(glob.glob(os.path.join(d, "*.json")) for d in
       ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"]):
    config.available_features.add("vulkan")
    # Which device coro-run picks: tests that record lavapipe's problems
    # (test/e2e/known/driver) only apply to it.
    import json
    try:
        probe = subprocess.run(
            [os.path.join(config.coro_tools_dir, "coro-run"),
             os.path.join(config.coro_src_root, "examples", "shade.mlir"),
             "--coro=shade", "--grid=1", "--arg=1", "--buffer=f32:1:zeros",
             "--json"], capture_output=True, text=True, timeout=60)
        if "llvmpipe" in json.loads(probe.stdout).get("device", ""):
            config.available_features.add("lavapipe")
    except (OSError, ValueError, subprocess.SubprocessError):
        pass
# Pass statistics count only where MLIR was built with them (LLVM
# assertions or LLVM_FORCE_ENABLE_STATS); Debian's release build prints an
# empty report. The same numbers reach coro-dump-graph and
# coro-frame-report either way.
try:
    probe = subprocess.run(
        [os.path.join(config.coro_tools_dir, "coro-opt"),
         os.path.join(config.coro_src_root, "examples", "shade.mlir"),
         "--coro-expand-yield", "--coro-split", "--mlir-pass-statistics",
         "-o", os.devnull], capture_output=True, text=True, timeout=60)
    if "values-stored" in probe.stderr:
        config.available_features.add("pass-statistics")
except (OSError, subprocess.SubprocessError):
    pass
# An NVIDIA driver runs the CUDA backend.
import ctypes
try:
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass
# ptxas comes with the CUDA toolkit (no GPU needed to validate PTX).
ptxas = shutil.which("ptxas") or shutil.which(
    "ptxas", path=os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin"))
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    config.coro_ptxas = ptxas

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["coro-opt", "coro-run", "coro-vk-run-compute"], [config.coro_tools_dir])
