//===- StateMachineToFunc.cpp - the state-machine scheduler on the host ---===//
//
// Part of the CoroGPU project.
//
// The paper's state-machine scheduler (Sec. 6.1) on the host: each instance
// has a private frame and runs the subroutine its target token names until
// the token says it has returned.
//
//   coro.launch @f[%n](%a)   ==>   frame allocas
//                                  scf.for x, y, z:
//                                    token = 0
//                                    scf.while (token != -1):
//                                      scf.index_switch token:
//                                        case t: call @f__<name t>(...)
//
// The frame becomes one rank-0 memref per slot plus one for the token;
// subroutines take (token, x, y, z, nx, ny, slots..., args...) instead of
// !coro.frame.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"

#include "CoroGPU/Conversion/SchedulerUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSTATEMACHINETOFUNC
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;
using namespace mlir::coro;

namespace {

/// The host representation of one frame: a token and one memref per slot.
struct HostFrame {
  Value token;
  SmallVector<Value> slots;
};

/// Lowers the subroutines and the launches of one split coroutine.
class StateMachineLowering {
public:
  StateMachineLowering(SplitOp split, RewriterBase &rewriter)
      : split(split), rewriter(rewriter) {
    for (Attribute type : split.getSlots())
      slotTypes.push_back(MemRefType::get({}, cast<TypeAttr>(type).getValue()));
  }

  void lowerSubroutine(func::FuncOp subroutine) {
    Block &entry = subroutine.getBody().front();
    Location loc = subroutine.getLoc();
    Value frame = entry.getArgument(0);
    MLIRContext *context = rewriter.getContext();

    // (frame, args) -> (frame, token, x, y, z, nx, ny, slots..., args)
    SmallVector<Type> hostFrameTypes = {tokenType()};
    hostFrameTypes.append(kNumPositionArgs, IndexType::get(context));
    llvm::append_range(hostFrameTypes, slotTypes);
    for (auto [offset, type] : llvm::enumerate(hostFrameTypes))
      entry.insertArgument(1 + offset, type, loc);
    ValueRange hostArgs = entry.getArguments().slice(1, hostFrameTypes.size());
    Value token = hostArgs[0];
    InstancePosition position{hostArgs[1], hostArgs[2], hostArgs[3],
                              hostArgs[4], hostArgs[5]};
    ValueRange slots = hostArgs.drop_front(1 + kNumPositionArgs);

    SmallVector<Operation *> users(frame.getUsers());
    for (Operation *user : users) {
      rewriter.setInsertionPoint(user);
      Location userLoc = user->getLoc();
      if (auto load = dyn_cast<FrameLoadOp>(user)) {
        rewriter.replaceOpWithNewOp<memref::LoadOp>(load, slots[load.getSlot()],
                                                    ValueRange{});
      } else if (auto store = dyn_cast<FrameStoreOp>(user)) {
        rewriter.replaceOpWithNewOp<memref::StoreOp>(
            store, store.getValue(), slots[store.getSlot()], ValueRange{});
      } else if (auto set = dyn_cast<FrameSetTargetOp>(user)) {
        Value value =
            arith::ConstantIntOp::create(rewriter, userLoc, set.getToken(), 32);
        rewriter.replaceOpWithNewOp<memref::StoreOp>(set, value, token,
                                                     ValueRange{});
      } else if (auto id = dyn_cast<FrameIdOp>(user)) {
        rewriter.replaceOp(id, position.getId(rewriter, userLoc, id.getDim()));
      }
    }
    entry.eraseArgument(0);
    subroutine.setType(FunctionType::get(context, entry.getArgumentTypes(),
                                         subroutine.getResultTypes()));
  }

  void lowerLaunch(LaunchOp launch, ArrayRef<func::FuncOp> subroutines) {
    Location loc = launch.getLoc();
    // One frame, reused by the instances, which run one after the other.
    rewriter.setInsertionPoint(launch);
    HostFrame frame;
    frame.token = memref::AllocaOp::create(rewriter, loc, tokenType());
    for (Type type : slotTypes)
      frame.slots.push_back(
          memref::AllocaOp::create(rewriter, loc, cast<MemRefType>(type)));

    SmallVector<Value> args(launch.getArgs());
    lowerLaunchToLoops(
        launch, rewriter,
        [&](OpBuilder &builder, Location loc, const InstancePosition &pos) {
          buildInstance(builder, loc, pos, frame, args, subroutines);
        });
  }

private:
  MemRefType tokenType() { return MemRefType::get({}, rewriter.getI32Type()); }

  /// token = entry; while (token != terminated) switch (token) { call }.
  void buildInstance(OpBuilder &builder, Location loc,
                     const InstancePosition &position, const HostFrame &frame,
                     ArrayRef<Value> args, ArrayRef<func::FuncOp> subroutines) {
    Value entry = arith::ConstantIntOp::create(builder, loc, kEntryToken, 32);
    memref::StoreOp::create(builder, loc, entry, frame.token, ValueRange{});
    Value terminated =
        arith::ConstantIntOp::create(builder, loc, kTerminatedToken, 32);

    SmallVector<Value> operands = {frame.token};
    llvm::append_range(operands, position.asArguments());
    llvm::append_range(operands, frame.slots);
    llvm::append_range(operands, args);
    SmallVector<int64_t> cases =
        llvm::to_vector(llvm::seq<int64_t>(0, subroutines.size()));

    scf::WhileOp::create(
        builder, loc, TypeRange{}, ValueRange{},
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value token =
              memref::LoadOp::create(b, loc, frame.token, ValueRange{});
          Value running = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ne, token, terminated);
          scf::ConditionOp::create(b, loc, running, ValueRange{});
        },
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value token =
              memref::LoadOp::create(b, loc, frame.token, ValueRange{});
          Value index =
              arith::IndexCastOp::create(b, loc, b.getIndexType(), token);
          auto dispatch = scf::IndexSwitchOp::create(b, loc, TypeRange{}, index,
                                                     cases, cases.size());
          for (auto [region, subroutine] :
               llvm::zip_equal(dispatch.getCaseRegions(), subroutines)) {
            OpBuilder::InsertionGuard guard(b);
            b.createBlock(&region);
            func::CallOp::create(b, loc, subroutine, operands);
            scf::YieldOp::create(b, loc);
          }
          OpBuilder::InsertionGuard guard(b);
          b.createBlock(&dispatch.getDefaultRegion());
          scf::YieldOp::create(b, loc);
          b.setInsertionPointAfter(dispatch);
          scf::YieldOp::create(b, loc);
        });
  }

  SplitOp split;
  RewriterBase &rewriter;
  SmallVector<Type> slotTypes;
};

struct CoroStateMachineToFuncPass
    : coro::impl::CoroStateMachineToFuncBase<CoroStateMachineToFuncPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());
    SymbolTable symbols(module);

    llvm::StringMap<SplitOp> splits;
    for (SplitOp split : module.getOps<SplitOp>())
      splits[split.getCoroutine()] = split;

    llvm::StringMap<SmallVector<LaunchOp>> launchesByCallee;
    WalkResult result = module.walk([&](LaunchOp launch) {
      if (splits.contains(launch.getCallee())) {
        launchesByCallee[launch.getCallee()].push_back(launch);
        return WalkResult::advance();
      }
      launch.emitOpError("launches @")
          << launch.getCallee()
          << ", which has no coro.split; run coro-split first";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    for (auto &[name, split] : splits) {
      SmallVector<func::FuncOp> subroutines =
          llvm::map_to_vector(split.getSubroutines(), [&](Attribute symbol) {
            return symbols.lookup<func::FuncOp>(
                cast<FlatSymbolRefAttr>(symbol).getValue());
          });
      StateMachineLowering lowering(split, rewriter);
      for (func::FuncOp subroutine : subroutines)
        lowering.lowerSubroutine(subroutine);
      for (LaunchOp launch : launchesByCallee.lookup(name))
        lowering.lowerLaunch(launch, subroutines);
      rewriter.eraseOp(symbols.lookup(name));
      rewriter.eraseOp(split);
    }
  }
};

} // namespace
