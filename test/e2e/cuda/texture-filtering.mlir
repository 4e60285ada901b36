// The Sec. 7.3 host program (benchmarks/texture-filtering) on the CUDA
// backend at a tiny size: each image must match the CPU's, and the
// anisotropic one must be closer to the reference than the bilinear one.
// REQUIRES: cuda-driver
// RUN: %python %coro_src/benchmarks/texture-filtering/run.py --target sm_70 --width 32 --height 24 --reference-spp 64 --repeats 1 --check --coro-opt %coro_tools/coro-opt --wrappers %coro_libs/libcoro_runtime_wrappers.so --mlir-runner %mlir_runner --llvm-lib %llvm_lib_dir --out %t
