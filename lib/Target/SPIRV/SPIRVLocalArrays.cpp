//===- SPIRVLocalArrays.cpp - local arrays in SPIR-V Function storage -----===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVLOCALARRAYS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

namespace {

struct CoroSPIRVLocalArraysPass
    : coro::impl::CoroSPIRVLocalArraysBase<CoroSPIRVLocalArraysPass> {
  using Base::Base;

  void runOnOperation() override {
    auto function = spirv::StorageClassAttr::get(&getContext(),
                                                 spirv::StorageClass::Function);
    getOperation().walk([&](gpu::GPUModuleOp kernels) {
      kernels.walk([&](memref::AllocaOp alloca) {
        MemRefType type = alloca.getType();
        if (type.getMemorySpace())
          return;
        // Loads and stores, the only users of local arrays in kernels, take
        // any memory space.
        alloca.getResult().setType(MemRefType::get(type.getShape(),
                                                   type.getElementType(),
                                                   type.getLayout(), function));
      });
    });
  }
};

} // namespace
