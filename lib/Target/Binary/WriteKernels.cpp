//===- WriteKernels.cpp - write compiled kernels to files -----------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For Vulkan (Shader) targets the spirv.module lands next to its gpu.module,
// so gpu-module-to-binary does not apply; this pass serializes the
// spirv.modules itself, and also writes the PTX / cubin objects that
// gpu-module-to-binary embeds in gpu.binary ops.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"
#include "CoroGPU/Target/Passes.h"
#include "CoroGPU/Target/SerializeSPIRV.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROWRITEKERNELS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-write-kernels"

using namespace mlir;

/// Writes `bytes` to `<dir>/<name>`, reporting failures on `op`.
static LogicalResult writeKernelFile(Operation *op, StringRef dir,
                                     StringRef name, StringRef bytes) {
  SmallString<128> path(dir);
  llvm::sys::path::append(path, name);
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
  if (error)
    return op->emitError("coro-write-kernels: cannot write ")
           << path << ": " << error.message();
  os << bytes;
  return success();
}

/// File extension of a gpu.object of format `format`.
static StringRef getExtension(gpu::CompilationTarget format) {
  switch (format) {
  case gpu::CompilationTarget::Assembly:
    return "ptx";
  case gpu::CompilationTarget::Binary:
    return "cubin";
  case gpu::CompilationTarget::Fatbin:
    return "fatbin";
  case gpu::CompilationTarget::Offload:
    return "bc";
  }
  llvm_unreachable("unknown compilation target");
}

namespace {

struct CoroWriteKernelsPass
    : coro::impl::CoroWriteKernelsBase<CoroWriteKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(coro::prepareOutputDirectory(module, "coro-write-kernels",
                                            outputDir)))
      return signalPassFailure();
    for (auto spirvModule : module.getOps<spirv::ModuleOp>()) {
      SmallVector<uint32_t> binary;
      if (failed(coro::serializeSPIRV(spirvModule, binary)))
        return signalPassFailure();
      StringRef bytes(reinterpret_cast<const char *>(binary.data()),
                      binary.size() * sizeof(uint32_t));
      if (failed(writeKernelFile(
              spirvModule, outputDir,
              spirvModule.getSymName().value_or("module").str() + ".spv",
              bytes)))
        return signalPassFailure();
    }
    for (auto binary : module.getOps<gpu::BinaryOp>()) {
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        std::string chip = "object";
        if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget()))
          chip = nvvm.getChip().str();
        std::string name = (binary.getSymName() + "." + chip + "." +
                            getExtension(object.getFormat()))
                               .str();
        LDBG() << "writing " << name;
        if (failed(writeKernelFile(binary, outputDir, name,
                                   object.getObject().getValue())))
          return signalPassFailure();
      }
    }
    markAllAnalysesPreserved();
  }
};

} // namespace
