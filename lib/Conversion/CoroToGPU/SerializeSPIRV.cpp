//===- SerializeSPIRV.cpp - write spirv.modules as binaries ---------------===//
//
// Part of the CoroGPU project.
//
// For Vulkan (Shader) targets the spirv.module lands next to its gpu.module,
// so gpu-module-to-binary does not apply; this pass serializes the
// spirv.modules itself.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSERIALIZESPIRV
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

namespace {

struct CoroSerializeSPIRVPass
    : coro::impl::CoroSerializeSPIRVBase<CoroSerializeSPIRVPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (outputDir.empty()) {
      module.emitError("coro-serialize-spirv: set output-dir=<directory>");
      return signalPassFailure();
    }
    if (std::error_code error = llvm::sys::fs::create_directories(outputDir)) {
      module.emitError("coro-serialize-spirv: cannot create ")
          << outputDir << ": " << error.message();
      return signalPassFailure();
    }
    for (auto spirvModule : module.getOps<spirv::ModuleOp>()) {
      SmallVector<uint32_t> binary;
      if (failed(spirv::serialize(spirvModule, binary)))
        return signalPassFailure();
      SmallString<128> path(outputDir);
      llvm::sys::path::append(
          path, spirvModule.getSymName().value_or("module").str() + ".spv");
      std::error_code error;
      llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
      if (error) {
        spirvModule.emitError("coro-serialize-spirv: cannot write ")
            << path << ": " << error.message();
        return signalPassFailure();
      }
      os.write(reinterpret_cast<const char *>(binary.data()),
               binary.size() * sizeof(uint32_t));
    }
    markAllAnalysesPreserved();
  }
};

} // namespace
