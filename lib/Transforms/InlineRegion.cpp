//===- InlineRegion.cpp - inline a routine body at a call site ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Shared by coro-inline-callables (func.call) and coro-inline-awaits
// (coro.await). Upstream's inlineCall splits the caller's block, which is not
// valid inside scf regions; wrapping multi-block bodies in scf.execute_region
// keeps every call site valid, and control-flow normalization later lifts
// the execute_region's blocks to scf.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Transforms/InlineRegion.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

SmallVector<Operation *> mlir::coro::inlineBodyAtCall(RewriterBase &rewriter,
                                                      Operation *call,
                                                      Region &body,
                                                      ValueRange operands) {
  rewriter.setInsertionPoint(call);
  IRMapping mapping;

  if (body.hasOneBlock()) {
    Block &block = body.front();
    mapping.map(block.getArguments(), operands);
    SmallVector<Operation *> created;
    for (Operation &op : block.without_terminator())
      created.push_back(rewriter.clone(op, mapping));
    SmallVector<Value> results =
        llvm::map_to_vector(block.getTerminator()->getOperands(), [&](Value v) {
          return mapping.lookupOrDefault(v);
        });
    rewriter.replaceOp(call, results);
    return created;
  }

  auto region = scf::ExecuteRegionOp::create(rewriter, call->getLoc(),
                                             call->getResultTypes());
  rewriter.cloneRegionBefore(body, region.getRegion(), region.getRegion().end(),
                             mapping);
  Block &entry = region.getRegion().front();
  for (auto [argument, operand] :
       llvm::zip_equal(entry.getArguments(), operands))
    rewriter.replaceAllUsesWith(argument, operand);
  entry.eraseArguments(0, entry.getNumArguments());
  for (Block &block : region.getRegion()) {
    Operation *terminator = block.getTerminator();
    if (!terminator->hasTrait<OpTrait::ReturnLike>())
      continue;
    rewriter.setInsertionPoint(terminator);
    rewriter.replaceOpWithNewOp<scf::YieldOp>(terminator,
                                              terminator->getOperands());
  }
  rewriter.replaceOp(call, region.getResults());
  return {region};
}
