//===- SPIRVWorkgroupMemory.cpp - workgroup attributions for SPIR-V -------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVWORKGROUPMEMORY
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

namespace {

struct CoroSPIRVWorkgroupMemoryPass
    : coro::impl::CoroSPIRVWorkgroupMemoryBase<CoroSPIRVWorkgroupMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    auto workgroup = spirv::StorageClassAttr::get(
        &getContext(), spirv::StorageClass::Workgroup);
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      Block &entry = kernel.getBody().front();
      rewriter.setInsertionPointToStart(&entry);
      for (BlockArgument attribution :
           llvm::to_vector(kernel.getWorkgroupAttributions())) {
        auto type = cast<MemRefType>(attribution.getType());
        auto allocation = memref::AllocOp::create(
            rewriter, kernel.getLoc(),
            MemRefType::get(type.getShape(), type.getElementType(),
                            type.getLayout(), workgroup));
        rewriter.replaceAllUsesWith(attribution, allocation.getResult());
      }
      // The attributions are the block arguments after the inputs.
      entry.eraseArguments(kernel.getFirstWorkgroupAttributionIndex(),
                           kernel.getNumWorkgroupAttributions());
      kernel->removeAttr(kernel.getNumWorkgroupAttributionsAttrName());
    });
  }
};

} // namespace
