//===- InlineGenerators.cpp - loops over generators, run in place ---------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CPU reference's reading of `coro.for_each`, written apart from the
// split and the handles that the schedulers use: the generator's code runs
// in place of the loop, the loop body at each of its yields, and once the
// body stops the loop, nothing the generator would have done after that
// happens:
//
//   %r = coro.for_each @g[%i](%n) iter_args(%a0) {      stop = false; a = %a0
//   ^bb0(%v, %a):                                       scf.execute_region {
//     <body>                                 ==>          <@g's code, with
//     coro.for_each.yield %go, %next                       coro.yield %v ==>
//   }                                                        if (!stop) {
//                                                              <body>
//                                                              a = %next
//                                                              stop = !%go }
//                                                          writes and calls
//                                                          under if (!stop),
//                                                          loops left when
//                                                          stop is set>
//                                                       }; %r = a
//
// The stop flag and the carried values live in allocas at the start of the
// enclosing coroutine, so the code of the generator needs no change to its
// control flow to carry them.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROINLINEGENERATORS
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-inline-generators"

using namespace mlir;
using namespace mlir::coro;

namespace {

/// Whether `op` must not run once the loop has stopped: the generator is
/// never resumed then, so nothing of it that touches memory (a read too: its
/// index may be one the generator never reaches), calls, may trap (a
/// division) or does not say what it does may run. Pure, speculatable ops
/// may: their results feed only such ops. Ops with regions say it through
/// their nested ops, which are asked themselves.
bool needsGuard(Operation *op) {
  if (isa<YieldOp, SuspendOp, PromiseOp, IdOp>(op) ||
      op->hasTrait<OpTrait::IsTerminator>() ||
      op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  if (!isSpeculatable(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !isPure(op);
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return !isa<MemoryEffects::Allocate>(e.getEffect());
  });
}

/// `loop` as an scf.while on its induction variable, so that the loop can
/// end as soon as the generator's loop has stopped (an scf.for runs all its
/// trips): the condition compares as the scf.for does.
void convertToWhile(scf::ForOp loop) {
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inits = {loop.getLowerBound()};
  llvm::append_range(inits, loop.getInitArgs());
  auto whileLoop = scf::WhileOp::create(
      builder, loc, ValueRange(inits).getTypes(), inits,
      [&](OpBuilder &b, Location loc, ValueRange carried) {
        Value more = arith::CmpIOp::create(
            b, loc,
            loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                  : arith::CmpIPredicate::slt,
            carried.front(), loop.getUpperBound());
        scf::ConditionOp::create(b, loc, more, carried);
      },
      [&](OpBuilder &b, Location loc, ValueRange carried) {
        IRMapping mapping;
        mapping.map(loop.getInductionVar(), carried.front());
        mapping.map(loop.getRegionIterArgs(), carried.drop_front());
        for (Operation &op : loop.getBody()->without_terminator())
          b.clone(op, mapping);
        SmallVector<Value> next = {
            arith::AddIOp::create(b, loc, carried.front(), loop.getStep())};
        for (Value yielded : loop.getYieldedValues())
          next.push_back(mapping.lookupOrDefault(yielded));
        scf::YieldOp::create(b, loc, next);
      });
  loop.replaceAllUsesWith(whileLoop.getResults().drop_front());
  loop.erase();
}

struct CoroInlineGeneratorsPass
    : coro::impl::CoroInlineGeneratorsBase<CoroInlineGeneratorsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Innermost generators first: a generator's code is copied with the
    // loops over other generators it holds already run in place.
    while (true) {
      SmallVector<std::pair<ForEachOp, FuncOp>> ready;
      ForEachOp waiting;
      WalkResult result = module.walk([&](ForEachOp loop) {
        auto generator = symbols.lookup<FuncOp>(loop.getGenerator());
        if (!generator) {
          loop.emitOpError("loops over @")
              << loop.getGenerator() << ", which is not a coro.func here";
          return WalkResult::interrupt();
        }
        bool holdsLoops = false;
        generator.walk([&](ForEachOp) {
          holdsLoops = true;
          return WalkResult::interrupt();
        });
        if (holdsLoops)
          waiting = loop;
        else
          ready.emplace_back(loop, generator);
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return signalPassFailure();
      if (ready.empty() && waiting) {
        waiting.emitOpError("loops over @")
            << waiting.getGenerator()
            << ", whose loops over generators come back to it";
        return signalPassFailure();
      }
      if (ready.empty())
        return;
      for (auto [loop, generator] : ready)
        inlineGenerator(loop, generator);
    }
  }

  void inlineGenerator(ForEachOp loop, FuncOp generator) {
    Location loc = loop.getLoc();
    // The stop flag and the carried values, allocated once per function
    // (a loop in a loop must not grow the stack).
    OpBuilder atStart(loop.getContext());
    Operation *function =
        loop->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
    atStart.setInsertionPointToStart(&function->getRegion(0).front());
    auto allocate = [&](Type type) {
      return memref::AllocaOp::create(atStart, loc, MemRefType::get({}, type))
          .getResult();
    };
    Value stop = allocate(atStart.getI1Type());
    SmallVector<Value> carried;
    for (Value init : loop.getInits())
      carried.push_back(allocate(init.getType()));

    OpBuilder builder(loop);
    Value trueValue = arith::ConstantIntOp::create(builder, loc, 1, 1);
    Value falseValue = arith::ConstantIntOp::create(builder, loc, 0, 1);
    memref::StoreOp::create(builder, loc, falseValue, stop);
    for (auto [init, slot] : llvm::zip_equal(loop.getInits(), carried))
      memref::StoreOp::create(builder, loc, init, slot);

    auto inPlace = scf::ExecuteRegionOp::create(builder, loc, TypeRange{});
    Region &region = inPlace.getRegion();
    IRMapping mapping;
    mapping.map(generator.getArguments(), loop.getArgs());
    generator.getBody().cloneInto(&region, mapping);

    // Its allocas at the start of the function too (a copy in a loop must
    // not grow the stack either); its scf.for loops as scf.while loops.
    region.walk([&](memref::AllocaOp alloca) {
      if (alloca->getNumOperands() == 0)
        alloca->moveBefore(atStart.getInsertionBlock(),
                           atStart.getInsertionPoint());
    });
    SmallVector<scf::ForOp> forLoops;
    region.walk([&](scf::ForOp forLoop) { forLoops.push_back(forLoop); });
    for (scf::ForOp forLoop : forLoops)
      convertToWhile(forLoop);

    // The generator's instance is the loop's (a frame made for index i is
    // instance (i, 0, 0) of a grid of one row).
    SmallVector<Operation *> ops;
    region.walk([&](Operation *op) { ops.push_back(op); });
    auto notStopped = [&](OpBuilder &b, Location loc) {
      Value stopped = memref::LoadOp::create(b, loc, stop);
      return arith::XOrIOp::create(b, loc, stopped, trueValue).getResult();
    };
    for (Operation *op : ops) {
      OpBuilder b(op);
      if (auto id = dyn_cast<IdOp>(op)) {
        Value value = loop.getInstance();
        if (id.getDim().value_or(0) != 0)
          value = arith::ConstantIndexOp::create(b, id.getLoc(), 0);
        id.replaceAllUsesWith(value);
        id.erase();
      } else if (isa<ReturnOp>(op)) {
        scf::YieldOp::create(b, op->getLoc());
        op->erase();
      } else if (auto condition = dyn_cast<scf::ConditionOp>(op)) {
        // A loop of the generator ends once the loop has stopped (a select,
        // not an and: the condition may be poison by then).
        Value goOn = arith::SelectOp::create(
            b, condition.getLoc(), notStopped(b, condition.getLoc()),
            condition.getCondition(), falseValue);
        condition.getConditionMutable().assign(goOn);
      } else if (auto yield = dyn_cast<YieldOp>(op)) {
        runBody(b, loop, yield, stop, carried, notStopped(b, yield.getLoc()));
        yield.erase();
      } else if (needsGuard(op)) {
        guard(b, op, notStopped(b, op->getLoc()));
      }
    }
    // So do the generator's `cf` loops: each block but the entry is entered
    // only while the loop goes on.
    Block *exit = nullptr;
    SmallVector<Block *> blocks = llvm::to_vector(
        llvm::drop_begin(llvm::make_pointer_range(region.getBlocks())));
    for (Block *block : blocks) {
      if (!exit) {
        exit = new Block();
        region.push_back(exit);
        OpBuilder atExit = OpBuilder::atBlockEnd(exit);
        scf::YieldOp::create(atExit, loc);
      }
      Block *rest = block->splitBlock(block->begin());
      OpBuilder b = OpBuilder::atBlockEnd(block);
      cf::CondBranchOp::create(b, loc, notStopped(b, loc), rest, exit);
    }

    builder.setInsertionPointAfter(inPlace);
    for (auto [result, slot] : llvm::zip_equal(loop.getResults(), carried))
      result.replaceAllUsesWith(memref::LoadOp::create(builder, loc, slot));
    LDBG() << "inlined @" << generator.getSymName() << " at " << loc;
    loop.erase();
    ++numLoops;
  }

  /// In place of `yield`: the loop body, unless the loop has stopped.
  static void runBody(OpBuilder &b, ForEachOp loop, YieldOp yield, Value stop,
                      ArrayRef<Value> carried, Value notStopped) {
    Location loc = yield.getLoc();
    auto ifOp = scf::IfOp::create(b, loc, notStopped, /*withElse=*/false);
    OpBuilder inBody = OpBuilder::atBlockBegin(ifOp.thenBlock());
    inBody.setInsertionPoint(ifOp.thenYield());
    Block &body = loop.getBody().front();
    IRMapping mapping;
    mapping.map(body.getArgument(0), yield.getValue());
    for (auto [argument, slot] :
         llvm::zip_equal(body.getArguments().drop_front(), carried))
      mapping.map(argument, memref::LoadOp::create(inBody, loc, slot));
    for (Operation &op : body.without_terminator())
      inBody.clone(op, mapping);
    auto terminator = cast<ForEachYieldOp>(body.getTerminator());
    for (auto [value, slot] : llvm::zip_equal(terminator.getValues(), carried))
      memref::StoreOp::create(inBody, loc, mapping.lookupOrDefault(value),
                              slot);
    Value trueValue = arith::ConstantIntOp::create(inBody, loc, 1, 1);
    Value stops = arith::XOrIOp::create(
        inBody, loc, mapping.lookupOrDefault(terminator.getGoOn()), trueValue);
    memref::StoreOp::create(inBody, loc, stops, stop);
  }

  /// Runs `op` only while `notStopped`; its results are zeros otherwise
  /// (poison where a type has no zero): nothing guarded uses them then.
  static void guard(OpBuilder &b, Operation *op, Value notStopped) {
    Location loc = op->getLoc();
    auto ifOp = scf::IfOp::create(b, loc, op->getResultTypes(), notStopped,
                                  /*withElseRegion=*/op->getNumResults() > 0);
    if (op->getNumResults() == 0) {
      op->moveBefore(ifOp.thenYield());
      return;
    }
    OpBuilder inThen = OpBuilder::atBlockEnd(ifOp.thenBlock());
    op->replaceAllUsesWith(ifOp.getResults());
    op->moveBefore(inThen.getInsertionBlock(), inThen.getInsertionPoint());
    scf::YieldOp::create(inThen, loc, op->getResults());
    OpBuilder inElse = OpBuilder::atBlockEnd(ifOp.elseBlock());
    SmallVector<Value> skipped;
    for (Type type : op->getResultTypes()) {
      auto zero = dyn_cast_or_null<TypedAttr>(inElse.getZeroAttr(type));
      skipped.push_back(
          zero ? arith::ConstantOp::create(inElse, loc, zero).getResult()
               : ub::PoisonOp::create(inElse, loc, type).getResult());
    }
    scf::YieldOp::create(inElse, loc, skipped);
  }
};

} // namespace
