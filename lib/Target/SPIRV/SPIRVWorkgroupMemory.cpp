//===- SPIRVWorkgroupMemory.cpp - workgroup attributions for SPIR-V -------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVWORKGROUPMEMORY
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-spirv-workgroup-memory"

using namespace mlir;

namespace {

/// The memref and first index operands of a load, store or atomic; null
/// for any other op.
struct ArrayAccess {
  OpOperand *memref = nullptr, *index = nullptr;
};
ArrayAccess getArrayAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return {&load.getMemrefMutable(), &load.getIndicesMutable()[0]};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return {&store.getMemrefMutable(), &store.getIndicesMutable()[0]};
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    return {&atomic.getMemrefMutable(), &atomic.getIndicesMutable()[0]};
  return {};
}

/// A workgroup attribution that can live in the kernel's arena: a static
/// 1-D memref of i32 used only by loads, stores and atomics, whose index
/// is shifted by its offset in the arena.
bool fitsInArena(BlockArgument attribution) {
  auto type = cast<MemRefType>(attribution.getType());
  if (type.getRank() != 1 || !type.hasStaticShape() ||
      !type.getElementType().isInteger(32) || !type.getLayout().isIdentity())
    return false;
  return llvm::all_of(attribution.getUsers(), [&](Operation *user) {
    ArrayAccess access = getArrayAccess(user);
    return access.memref && access.memref->get() == attribution;
  });
}

/// Words of the arena of `kernel`: its attributions that fit in one.
int64_t getArenaWords(gpu::GPUFuncOp kernel) {
  int64_t words = 0;
  for (BlockArgument attribution : kernel.getWorkgroupAttributions())
    if (fitsInArena(attribution))
      words += cast<MemRefType>(attribution.getType()).getNumElements();
  return words;
}

struct CoroSPIRVWorkgroupMemoryPass
    : coro::impl::CoroSPIRVWorkgroupMemoryBase<CoroSPIRVWorkgroupMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](gpu::GPUModuleOp kernels) {
      // Every kernel of the module gets an arena of the same size, so that
      // coro-spirv-merge-workgroup-variables can give them one variable.
      int64_t arenaWords = 0;
      for (auto kernel : kernels.getOps<gpu::GPUFuncOp>())
        arenaWords = std::max(arenaWords, getArenaWords(kernel));
      LDBG() << "@" << kernels.getName() << ": arenas of " << arenaWords
             << " words";
      for (auto kernel : kernels.getOps<gpu::GPUFuncOp>())
        lowerAttributions(kernel, arenaWords, rewriter);
    });
  }

  void lowerAttributions(gpu::GPUFuncOp kernel, int64_t arenaWords,
                         RewriterBase &rewriter) {
    if (kernel.getNumWorkgroupAttributions() == 0)
      return;
    auto workgroup = spirv::StorageClassAttr::get(
        &getContext(), spirv::StorageClass::Workgroup);
    Location loc = kernel.getLoc();
    Block &entry = kernel.getBody().front();
    rewriter.setInsertionPointToStart(&entry);
    Value arena;
    if (getArenaWords(kernel) != 0)
      arena = memref::AllocOp::create(
          rewriter, loc,
          MemRefType::get({arenaWords}, rewriter.getI32Type(),
                          MemRefLayoutAttrInterface(), workgroup));
    int64_t offset = 0;
    for (BlockArgument attribution :
         llvm::to_vector(kernel.getWorkgroupAttributions())) {
      auto type = cast<MemRefType>(attribution.getType());
      if (!fitsInArena(attribution)) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&entry);
        auto allocation = memref::AllocOp::create(
            rewriter, loc,
            MemRefType::get(type.getShape(), type.getElementType(),
                            type.getLayout(), workgroup));
        rewriter.replaceAllUsesWith(attribution, allocation.getResult());
        continue;
      }
      for (Operation *user : llvm::to_vector(attribution.getUsers()))
        moveIntoArena(user, arena, offset, rewriter);
      offset += type.getNumElements();
    }
    // The attributions are the block arguments after the inputs.
    entry.eraseArguments(kernel.getFirstWorkgroupAttributionIndex(),
                         kernel.getNumWorkgroupAttributions());
    kernel->removeAttr(kernel.getNumWorkgroupAttributionsAttrName());
  }

  /// Makes `user` (a load, store or atomic of an attribution) access
  /// `arena` at its index + `offset`.
  static void moveIntoArena(Operation *user, Value arena, int64_t offset,
                            RewriterBase &rewriter) {
    ArrayAccess access = getArrayAccess(user);
    rewriter.setInsertionPoint(user);
    Value index = access.index->get();
    if (offset != 0)
      index = arith::AddIOp::create(
          rewriter, user->getLoc(), index,
          arith::ConstantIndexOp::create(rewriter, user->getLoc(), offset));
    rewriter.modifyOpInPlace(user, [&] {
      access.memref->set(arena);
      access.index->set(index);
    });
  }
};

} // namespace
