//===- CoroOps.h - coro dialect operations ----------------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_CORO_IR_COROOPS_H
#define COROGPU_DIALECT_CORO_IR_COROOPS_H

#include "CoroGPU/Dialect/Coro/IR/CoroDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace coro {

/// Name of the frame field written by `coro.yield`.
inline constexpr llvm::StringLiteral kYieldedValueField = "__yielded_value";
/// Names of the special frame fields; promises may not use them.
inline constexpr llvm::StringLiteral kCoroIdField = "coro_id";
inline constexpr llvm::StringLiteral kTargetTokenField = "target_token";
/// Target token of the entry subroutine, and the token that means "returned".
inline constexpr int32_t kEntryToken = 0;
inline constexpr int32_t kTerminatedToken = -1;
/// Frame words of the special fields, and the first word of the others.
inline constexpr int64_t kTargetTokenWord = 0;
inline constexpr int64_t kCoroIdWord = 1;
inline constexpr int64_t kFirstFieldWord = 2;

/// The name of lane `lane` of a vector value's frame fields: coro-split keeps
/// the lanes of a vector in fields of their own, `name[0]`, `name[1]`, ...
std::string getFrameFieldLaneName(llvm::StringRef name, int64_t lane);

namespace detail {
LogicalResult verifyInCoroutine(Operation *op);
LogicalResult verifySuspensionPoint(Operation *op);
} // namespace detail

} // namespace coro

namespace OpTrait {
namespace coro {

/// Verifies that the op is nested in a `coro.func` (and not in a callable).
template <typename ConcreteType>
class InCoroutine : public TraitBase<ConcreteType, InCoroutine> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return ::mlir::coro::detail::verifyInCoroutine(op);
  }
};

/// Verifies that the op sits where a coroutine may suspend: inside a
/// `coro.func`, enclosed only by control flow the splitter can replay.
template <typename ConcreteType>
class SuspensionPoint : public TraitBase<ConcreteType, SuspensionPoint> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return ::mlir::coro::detail::verifySuspensionPoint(op);
  }
};

} // namespace coro
} // namespace OpTrait
} // namespace mlir

#define GET_TYPEDEF_CLASSES
#include "CoroGPU/Dialect/Coro/IR/CoroTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "CoroGPU/Dialect/Coro/IR/CoroAttrs.h.inc"

#define GET_OP_CLASSES
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h.inc"

namespace mlir {
namespace coro {

/// Number of 32-bit words of a frame with `fields`, the special fields
/// included.
int64_t getFrameWords(ArrayRef<FrameFieldAttr> fields);

/// Returns the coroutine that (transitively) contains `op`, or null.
FuncOp getEnclosingCoroutine(Operation *op);

/// Tags become parts of kernel names in PTX and SPIR-V, so they are C
/// identifiers: [A-Za-z_][A-Za-z0-9_]*. ("entry" is valid here but reserved
/// for the entry subroutine.)
bool isValidSuspensionTag(llvm::StringRef tag);

/// True for ops that suspend the enclosing coroutine.
inline bool isSuspensionPoint(Operation *op) {
  return op->hasTrait<OpTrait::coro::SuspensionPoint>();
}

/// The coroutine whose frames `op` drives: the one a coro.handle op names or
/// a handle it takes or gives belongs to, the generator of a coro.for_each;
/// null for any other op.
FlatSymbolRefAttr getDrivenCoroutine(Operation *op);

/// The first op in `root` (itself included) that drives frames, in program
/// order; null when none does.
Operation *findFrameDriver(Operation *root);

/// The coroutines of `module` that a `coro.split` names.
llvm::StringSet<> getSplitCoroutines(ModuleOp module);
/// The `coro.split` of each coroutine of `module` split, by its name.
llvm::StringMap<SplitOp> getSplitsByCoroutine(ModuleOp module);

/// `location` as reports show it to people: `file:line:col` of the source
/// line it comes from (the callee's line for an inlined call site), or its
/// MLIR form where it names no line.
std::string formatSourceLocation(LocationAttr location);

} // namespace coro
} // namespace mlir

#endif // COROGPU_DIALECT_CORO_IR_COROOPS_H
