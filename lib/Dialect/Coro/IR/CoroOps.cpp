//===- CoroOps.cpp - coro dialect operations ------------------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Parsing, printing and verification of the coro ops. The rules checked here
// are the ones a single op (or a single coroutine) can decide: placement of
// suspension points, tags, promise field types, generator yields, and the
// await graph (callee exists, signature, no recursion). One file for the
// ops of CoroOps.td, as upstream dialects have (SCF.cpp, GPUDialect.cpp):
// over 700 lines because each of 27 ops has its verifier or custom syntax.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::coro;

//===----------------------------------------------------------------------===//
// Placement rules (traits InCoroutine and SuspensionPoint)
//===----------------------------------------------------------------------===//

FuncOp mlir::coro::getEnclosingCoroutine(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto coroutine = dyn_cast<FuncOp>(parent))
      return coroutine;
    if (parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return nullptr;
  }
  return nullptr;
}

/// Describes `op` for diagnostics: "'func.func' @name" or "'scf.for'".
static std::string describe(Operation *op) {
  std::string text = ("'" + op->getName().getStringRef() + "'").str();
  if (auto symbol =
          op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
    text += (" @" + symbol.getValue()).str();
  return text;
}

/// Emits the error for an op found outside any coroutine; `isolator` is the
/// isolated-from-above op (often a callable) that encloses it, if any.
static LogicalResult emitNotInCoroutine(Operation *op, Operation *isolator) {
  InFlightDiagnostic diag = op->emitOpError("must be inside a 'coro.func'");
  // A module directly holding the op is not worth a note.
  if (!isolator || isolator->hasTrait<OpTrait::SymbolTable>())
    return diag;
  diag << ", but is inside " << describe(isolator);
  if (isa<FunctionOpInterface>(isolator) && isSuspensionPoint(op))
    diag << "; callables cannot suspend (they are stackless), use "
            "'coro.await' on a 'coro.func' to suspend in a nested routine";
  diag.attachNote(isolator->getLoc()) << "enclosing op is here";
  return diag;
}

/// Walks up from `op` to its coroutine. Every op of the dialect must find
/// one before any isolated-from-above op; a suspension point must also be
/// enclosed only by structured control flow that the splitter can replay.
static LogicalResult verifyPlacement(Operation *op, bool isSuspension) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<FuncOp>(parent))
      return success();
    if (parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return emitNotInCoroutine(op, parent);
    if (!isSuspension)
      continue;
    if (isa<scf::ParallelOp, scf::ForallOp>(parent)) {
      InFlightDiagnostic diag =
          op->emitOpError("cannot suspend inside ")
          << describe(parent)
          << ": the iterations of a parallel loop cannot be suspended and "
             "resumed one by one";
      diag.attachNote(parent->getLoc()) << "parallel loop is here";
      return diag;
    }
    // coro-lower-handles turns a coro.for_each into an scf.while before the
    // coroutine holding it is split.
    if (!isa<RegionBranchOpInterface, ForEachOp>(parent)) {
      InFlightDiagnostic diag =
          op->emitOpError("cannot suspend inside ")
          << describe(parent)
          << ": only structured control flow (scf.if, scf.for, scf.while, "
             "scf.index_switch, scf.execute_region) may enclose a "
             "suspension point";
      diag.attachNote(parent->getLoc()) << "enclosing op is here";
      return diag;
    }
  }
  return emitNotInCoroutine(op, nullptr);
}

LogicalResult mlir::coro::detail::verifyInCoroutine(Operation *op) {
  return verifyPlacement(op, /*isSuspension=*/false);
}

LogicalResult mlir::coro::detail::verifySuspensionPoint(Operation *op) {
  return verifyPlacement(op, /*isSuspension=*/true);
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type, Type yieldType,
                   ArrayRef<NamedAttribute> attrs) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  if (yieldType)
    state.addAttribute(getYieldTypeAttrName(state.name),
                       TypeAttr::get(yieldType));
  state.attributes.append(attrs.begin(), attrs.end());
  state.addRegion();
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  (void)mlir::impl::parseOptionalVisibilityKeyword(parser, result.attributes);

  StringAttr nameAttr;
  if (parser.parseSymbolName(nameAttr, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();

  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  SMLoc signatureLoc = parser.getCurrentLocation();
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, arguments, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  if (!resultTypes.empty())
    return parser.emitError(signatureLoc)
           << "a coroutine returns no value; declare a generator with "
              "'yields <type>' and produce values with 'coro.yield'";

  if (succeeded(parser.parseOptionalKeyword("yields"))) {
    Type yieldType;
    if (parser.parseType(yieldType))
      return failure();
    result.addAttribute(getYieldTypeAttrName(result.name),
                        TypeAttr::get(yieldType));
  }

  SmallVector<Type> argumentTypes = llvm::map_to_vector(
      arguments, [](OpAsmParser::Argument &arg) { return arg.type; });
  result.addAttribute(
      getFunctionTypeAttrName(result.name),
      TypeAttr::get(builder.getFunctionType(argumentTypes, {})));

  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  call_interface_impl::addArgAndResultAttrs(
      builder, result, arguments, resultAttrs, getArgAttrsAttrName(result.name),
      getResAttrsAttrName(result.name));

  Region *body = result.addRegion();
  return parser.parseRegion(*body, arguments, /*enableNameShadowing=*/false);
}

void FuncOp::print(OpAsmPrinter &p) {
  p << ' ';
  if (std::optional<StringRef> visibility = getSymVisibility())
    p << *visibility << ' ';
  p.printSymbolName(getSymName());
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, /*resultTypes=*/{});
  if (std::optional<Type> yieldType = getYieldType())
    p << " yields " << *yieldType;
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getSymVisibilityAttrName(), getFunctionTypeAttrName(),
       getArgAttrsAttrName(), getResAttrsAttrName(), getYieldTypeAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

static bool isScalarType(Type type) {
  return type.isSignlessInteger() || isa<FloatType, IndexType>(type);
}

/// Types a frame field (a promise or a yielded value) can hold.
static bool isFrameFieldType(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return isScalarType(vector.getElementType());
  return isScalarType(type);
}

LogicalResult FuncOp::verify() {
  if (isExternal())
    return emitOpError("requires a body: coroutines cannot be declared "
                       "externally, the compiler must see them to split them");
  if (!getFunctionType().getResults().empty())
    return emitOpError("must return no value, but its type has ")
           << getFunctionType().getNumResults() << " result(s)";
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    if (!isFrameFieldType(type) && !isa<MemRefType>(type))
      return emitOpError("argument #")
             << index << " has type " << type
             << "; coroutine arguments must be scalars (integer, float, "
                "index), vectors of scalars, or memrefs";
  }
  if (std::optional<Type> yieldType = getYieldType();
      yieldType && !isFrameFieldType(*yieldType))
    return emitOpError("yields ")
           << *yieldType
           << ", but a generator yields an integer, float, index or vector "
              "of those";
  return success();
}

/// Why `op` means nothing in a coroutine, if it reads the thread or
/// workgroup that runs it or synchronizes with the others. (Lane ids and
/// subgroup operations are not refused: coro-profile-lanes counts lanes
/// with them.) By name: the dialect does not depend on the GPU dialect.
static std::optional<StringRef> getThreadBoundReason(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name == "gpu.thread_id" || name == "gpu.block_id" ||
      name == "gpu.block_dim" || name == "gpu.grid_dim" ||
      name == "gpu.global_id" || name == "gpu.cluster_id" ||
      name == "gpu.cluster_dim" || name == "gpu.cluster_block_id" ||
      name == "gpu.cluster_dim_blocks")
    return StringRef(
        "an instance resumes in whichever thread and workgroup its scheduler "
        "picks (the wavefront scheduler: a new one after each suspension "
        "point), so thread and workgroup ids differ from one scheduler to "
        "another; coro.id is the instance's own index");
  if (name == "gpu.barrier")
    return StringRef(
        "the threads of a workgroup run different instances at different "
        "suspension points (or none), so a barrier in an instance would wait "
        "for threads that never reach it");
  return std::nullopt;
}

LogicalResult FuncOp::verifyRegions() {
  // Tags name subroutines and promises name frame fields: both must be
  // unambiguous across the whole coroutine.
  llvm::StringMap<SuspendOp> taggedSuspends;
  llvm::StringMap<PromiseOp> promiseFields;
  WalkResult result = getBody().walk([&](Operation *op) -> WalkResult {
    if (std::optional<StringRef> why = getThreadBoundReason(op)) {
      op->emitOpError("cannot be used in coroutine @")
          << getSymName() << ": " << *why;
      return WalkResult::interrupt();
    }
    if (auto suspend = dyn_cast<SuspendOp>(op)) {
      std::optional<StringRef> tag = suspend.getTag();
      if (!tag)
        return WalkResult::advance();
      auto [it, inserted] = taggedSuspends.try_emplace(*tag, suspend);
      if (inserted)
        return WalkResult::advance();
      InFlightDiagnostic diag = suspend.emitOpError("tag \"")
                                << *tag << "\" is already used in coroutine @"
                                << getSymName()
                                << "; tags name subroutines and must be unique";
      diag.attachNote(it->second.getLoc()) << "first use is here";
      return WalkResult::interrupt();
    }
    if (auto promise = dyn_cast<PromiseOp>(op)) {
      auto [it, inserted] =
          promiseFields.try_emplace(promise.getName(), promise);
      Type fieldType = it->second.getValue().getType();
      if (inserted || fieldType == promise.getValue().getType())
        return WalkResult::advance();
      InFlightDiagnostic diag = promise.emitOpError("stores ")
                                << promise.getValue().getType()
                                << " into frame field \"" << promise.getName()
                                << "\", which already holds " << fieldType;
      diag.attachNote(it->second.getLoc()) << "field first defined here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// SuspendOp
//===----------------------------------------------------------------------===//

bool mlir::coro::isValidSuspensionTag(StringRef tag) {
  if (tag.empty() || !(llvm::isAlpha(tag.front()) || tag.front() == '_'))
    return false;
  return llvm::all_of(tag, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

LogicalResult SuspendOp::verify() {
  std::optional<StringRef> tag = getTag();
  if (!tag)
    return success();
  if (!isValidSuspensionTag(*tag))
    return emitOpError("tag \"")
           << *tag
           << "\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*); it names "
              "the subroutine that resumes here";
  if (*tag == "entry")
    return emitOpError("tag \"entry\" is reserved for the entry subroutine");
  return success();
}

//===----------------------------------------------------------------------===//
// PromiseOp
//===----------------------------------------------------------------------===//

LogicalResult PromiseOp::verify() {
  StringRef name = getName();
  if (name.empty())
    return emitOpError("needs a non-empty field name");
  if (name == kCoroIdField || name == kTargetTokenField)
    return emitOpError("field name \"")
           << name << "\" is reserved for a special frame field";
  if (name != kYieldedValueField)
    return success();
  // The InCoroutine trait has already checked that the coroutine exists.
  FuncOp coroutine = getEnclosingCoroutine(*this);
  if (!coroutine || !coroutine.isGenerator())
    return emitOpError("field \"")
           << kYieldedValueField << "\" only exists in generators";
  if (getValue().getType() != *coroutine.getYieldType())
    return emitOpError("field \"")
           << kYieldedValueField << "\" has the generator's yield type "
           << *coroutine.getYieldType() << ", not " << getValue().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  FuncOp coroutine = getEnclosingCoroutine(*this);
  if (!coroutine)
    return success(); // Reported by the SuspensionPoint trait.
  if (!coroutine.isGenerator())
    return emitOpError("only generators may yield; declare @")
           << coroutine.getSymName() << " with yields " << getValue().getType();
  if (getValue().getType() != *coroutine.getYieldType())
    return emitOpError("yields ")
           << getValue().getType() << ", but @" << coroutine.getSymName()
           << " yields " << *coroutine.getYieldType();
  return success();
}

//===----------------------------------------------------------------------===//
// AwaitOp
//===----------------------------------------------------------------------===//

/// Looks for a chain of awaits from `from` back to `target`; on success
/// `path` holds the coroutines visited after `from`, ending in `target`.
static bool findAwaitPath(FuncOp from, FuncOp target,
                          SymbolTableCollection &symbolTable,
                          llvm::SmallPtrSetImpl<Operation *> &visited,
                          SmallVectorImpl<FuncOp> &path) {
  if (!visited.insert(from).second)
    return false;
  WalkResult result = from.walk([&](AwaitOp await) {
    auto callee = symbolTable.lookupNearestSymbolFrom<FuncOp>(
        await, await.getCalleeAttr());
    if (!callee)
      return WalkResult::advance();
    path.push_back(callee);
    if (callee == target ||
        findAwaitPath(callee, target, symbolTable, visited, path))
      return WalkResult::interrupt();
    path.pop_back();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The coroutine `name` names from `user`; null after a diagnostic, which
/// ends with `whyCoroutine` when `name` is another kind of symbol.
static FuncOp lookupCoroutine(Operation *user, FlatSymbolRefAttr name,
                              SymbolTableCollection &symbolTable,
                              const Twine &whyCoroutine) {
  Operation *symbol = symbolTable.lookupNearestSymbolFrom(user, name);
  if (!symbol) {
    user->emitOpError("'") << name
                           << "' does not reference a symbol in this module";
    return nullptr;
  }
  auto coroutine = dyn_cast<FuncOp>(symbol);
  if (!coroutine) {
    InFlightDiagnostic diag = user->emitOpError("'")
                              << name << "' is " << describe(symbol)
                              << ", not a 'coro.func'" << whyCoroutine;
    diag.attachNote(symbol->getLoc()) << "symbol defined here";
    return nullptr;
  }
  return coroutine;
}

/// Resolves the coroutine that `user` (an await or a launch) refers to and
/// checks the arguments it passes; returns null after a diagnostic.
static FuncOp verifyCoroutineCallee(Operation *user, FlatSymbolRefAttr name,
                                    ValueRange operands, StringRef verb,
                                    SymbolTableCollection &symbolTable) {
  FuncOp callee = lookupCoroutine(user, name, symbolTable,
                                  "; only coroutines can be " + verb +
                                      " (call callables with 'func.call')");
  if (!callee)
    return nullptr;
  ArrayRef<Type> expected = callee.getArgumentTypes();
  if (operands.size() != expected.size()) {
    user->emitOpError("passes ") << operands.size() << " argument(s), but "
                                 << name << " takes " << expected.size();
    return nullptr;
  }
  for (auto [index, operand] : llvm::enumerate(operands)) {
    if (operand.getType() == expected[index])
      continue;
    user->emitOpError("argument #")
        << index << " has type " << operand.getType() << ", but " << name
        << " expects " << expected[index];
    return nullptr;
  }
  return callee;
}

LogicalResult AwaitOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FuncOp callee = verifyCoroutineCallee(*this, getCalleeAttr(), getOperands(),
                                        "awaited", symbolTable);
  if (!callee)
    return failure();
  if (callee.isGenerator())
    return emitOpError("cannot await the generator @")
           << getCallee()
           << ": the values it yields would be lost; consume a generator "
              "from a scheduler instead";

  FuncOp caller = getEnclosingCoroutine(*this);
  if (!caller)
    return success(); // Reported by the SuspensionPoint trait.
  llvm::SmallPtrSet<Operation *, 8> visited;
  SmallVector<FuncOp> path = {callee};
  if (callee != caller &&
      !findAwaitPath(callee, caller, symbolTable, visited, path))
    return success();
  // Every await on the cycle sees it; only the coroutine that comes first in
  // the module reports it, so the diagnostic does not depend on walk order.
  Block *moduleBody = caller->getBlock();
  for (FuncOp member : path)
    if (member->getBlock() == moduleBody && member->isBeforeInBlock(caller))
      return success();
  InFlightDiagnostic diag = emitOpError("recursive await: @")
                            << caller.getSymName();
  for (FuncOp step : path)
    diag << " -> @" << step.getSymName();
  diag << "; coroutines are stackless and cannot recurse";
  return diag;
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  if (getGrid().empty() || getGrid().size() > 3)
    return emitOpError("takes a grid of 1 to 3 dimensions, got ")
           << getGrid().size();
  if (FuncOp coroutine = getEnclosingCoroutine(*this))
    return emitOpError("cannot launch from inside coroutine @")
           << coroutine.getSymName()
           << "; use 'coro.await' to run a nested coroutine";
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return success(verifyCoroutineCallee(*this, getCalleeAttr(), getArgs(),
                                       "launched", symbolTable));
}

//===----------------------------------------------------------------------===//
// Handles
//===----------------------------------------------------------------------===//

/// The coroutine a handle op names (`name`), which must be a coro.func; and,
/// given, the handle type it gives or takes, which must name the same one.
static FuncOp verifyHandleCoroutine(Operation *user, FlatSymbolRefAttr name,
                                    SymbolTableCollection &symbolTable,
                                    HandleType handle = {}) {
  if (handle && handle.getCoroutine() != name) {
    user->emitOpError("names ")
        << name << " but its handle is a " << Type(handle);
    return nullptr;
  }
  return lookupCoroutine(user, name, symbolTable,
                         ": only coroutines have frames");
}

FlatSymbolRefAttr mlir::coro::getDrivenCoroutine(Operation *op) {
  if (auto size = dyn_cast<HandleFrameWordsOp>(op))
    return size.getCoroutineAttr();
  if (auto loop = dyn_cast<ForEachOp>(op))
    return loop.getGeneratorAttr();
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto handle = dyn_cast<HandleType>(type))
      return handle.getCoroutine();
  return {};
}

Operation *mlir::coro::findFrameDriver(Operation *root) {
  Operation *found = nullptr;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!getDrivenCoroutine(op))
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

llvm::StringSet<> mlir::coro::getSplitCoroutines(ModuleOp module) {
  llvm::StringSet<> split;
  for (SplitOp op : module.getOps<SplitOp>())
    split.insert(op.getCoroutine());
  return split;
}

LogicalResult
HandleCreateOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return success(verifyHandleCoroutine(*this, getCoroutineAttr(), symbolTable,
                                       getHandle().getType()));
}

LogicalResult
HandleLoadOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return success(verifyHandleCoroutine(*this, getCoroutineAttr(), symbolTable,
                                       getHandle().getType()));
}

LogicalResult
HandleFrameWordsOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return success(verifyHandleCoroutine(*this, getCoroutineAttr(), symbolTable));
}

LogicalResult HandleResumeOp::verify() {
  if (getToken() && getTag())
    return emitOpError("takes a token or a tag, not both");
  return success();
}

LogicalResult
HandleResumeOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto handle = getHandle().getType();
  if (!verifyHandleCoroutine(*this, handle.getCoroutine(), symbolTable))
    return failure();
  return success(verifyCoroutineCallee(*this, handle.getCoroutine(), getArgs(),
                                       "resumed", symbolTable));
}

LogicalResult ForEachOp::verify() {
  Block &body = getBody().front();
  if (getResults().size() != getInits().size())
    return emitOpError("has ") << getInits().size() << " iter_args but "
                               << getResults().size() << " results";
  for (auto [init, result] : llvm::zip_equal(getInits(), getResults()))
    if (init.getType() != result.getType())
      return emitOpError("carries a ")
             << init.getType() << " into a result of type " << result.getType();
  // A loop-carried memref is a pointer in a variable, which SPIR-V's logical
  // addressing does not allow; the body can use the buffer directly.
  for (Value init : getInits())
    if (isa<BaseMemRefType>(init.getType()))
      return emitOpError("cannot carry a memref (")
             << init.getType()
             << ") in its iter_args: use the buffer in the body directly";
  if (body.getNumArguments() != getInits().size() + 1)
    return emitOpError("body takes the yielded value and the ")
           << getInits().size() << " carried values, not "
           << body.getNumArguments() << " arguments";
  for (auto [init, argument] :
       llvm::zip_equal(getInits(), body.getArguments().drop_front()))
    if (init.getType() != argument.getType())
      return emitOpError("body argument of type ")
             << argument.getType() << " for a carried " << init.getType();
  auto yield = dyn_cast<ForEachYieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("body must end with coro.for_each.yield");
  if (TypeRange(yield.getValues()) != getResults().getTypes())
    return yield.emitOpError("carries ")
           << yield.getValues().getTypes() << ", but the loop carries "
           << getResults().getTypes();
  return success();
}

LogicalResult ForEachOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FuncOp generator = verifyCoroutineCallee(*this, getGeneratorAttr(), getArgs(),
                                           "consumed", symbolTable);
  if (!generator)
    return failure();
  if (!generator.isGenerator())
    return emitOpError("@")
           << getGenerator() << " yields nothing: only a generator (a "
           << "'coro.func ... yields T') can drive coro.for_each";
  // The body runs each time the generator suspends: the generator must
  // suspend only where it yields. (Once coro-expand-yield has made its
  // yields suspensions, they cannot be told apart; the check is on the
  // input.)
  bool yields = false;
  Operation *otherSuspension = nullptr;
  generator.walk([&](Operation *op) {
    if (isa<YieldOp>(op))
      yields = true;
    else if (isa<SuspendOp, AwaitOp>(op) && !otherSuspension)
      otherSuspension = op;
  });
  if (yields && otherSuspension) {
    InFlightDiagnostic diag =
        emitOpError("consumes @")
        << getGenerator()
        << ", which also suspends where it does not yield: the body would "
           "run at those suspensions too; use coro.handle ops to skip them";
    diag.attachNote(otherSuspension->getLoc()) << "suspends here";
    return diag;
  }
  Type valueType = getBody().front().getArgument(0).getType();
  if (valueType != *generator.getYieldType())
    return emitOpError("body takes a ")
           << valueType << " but @" << getGenerator() << " yields "
           << *generator.getYieldType();
  return success();
}

//===----------------------------------------------------------------------===//
// SplitOp
//===----------------------------------------------------------------------===//

LogicalResult SplitOp::verify() {
  int64_t numSubroutines = getSubroutines().size();
  if (numSubroutines == 0)
    return emitOpError("needs at least the entry subroutine");
  if (static_cast<int64_t>(getNames().size()) != numSubroutines)
    return emitOpError("has ") << numSubroutines << " subroutines but "
                               << getNames().size() << " names";
  SmallVector<FrameFieldAttr> fields = getFrameFields();
  for (FrameFieldAttr field : fields) {
    if (!field.getPromise())
      continue;
    for (FrameFieldAttr other : fields)
      if (other != field && field.overlaps(other))
        return emitOpError("promise field '")
               << field.getName().getValue() << "' shares storage with '"
               << other.getName().getValue()
               << "'; promise fields must have storage of their own";
  }
  for (Attribute attr : getTransitions()) {
    ArrayRef<int32_t> edge = cast<DenseI32ArrayAttr>(attr).asArrayRef();
    if (edge.size() != 2)
      return emitOpError("transition ") << attr << " is not a [from, to] pair";
    if (edge[0] < 0 || edge[0] >= numSubroutines || edge[1] < -1 ||
        edge[1] >= numSubroutines)
      return emitOpError("transition [")
             << edge[0] << ", " << edge[1] << "] names a token outside [-1, "
             << numSubroutines << ")";
  }
  return success();
}

int64_t mlir::coro::getFrameWords(ArrayRef<FrameFieldAttr> fields) {
  int64_t words = kFirstFieldWord;
  for (FrameFieldAttr field : fields)
    words = std::max(words, field.getWord() + field.getNumWords());
  return words;
}

FailureOr<SmallVector<func::FuncOp>>
SplitOp::lookupSubroutines(SymbolTable &symbols) {
  SmallVector<func::FuncOp> subroutines;
  for (auto symbol : getSubroutines().getAsRange<FlatSymbolRefAttr>()) {
    auto subroutine = symbols.lookup<func::FuncOp>(symbol.getValue());
    if (!subroutine)
      return emitOpError("subroutine ")
             << symbol << " is not a func.func in this module";
    subroutines.push_back(subroutine);
  }
  return subroutines;
}

int64_t SplitOp::getFrameWords() {
  return mlir::coro::getFrameWords(getFrameFields());
}

std::string mlir::coro::getFrameFieldLaneName(StringRef name, int64_t lane) {
  return (name + "[" + Twine(lane) + "]").str();
}

SmallVector<FrameFieldAttr> SplitOp::getPromiseFields(StringRef name) {
  llvm::StringMap<FrameFieldAttr> promises;
  for (FrameFieldAttr field : getFrameFields())
    if (field.getPromise())
      promises[field.getName().getValue()] = field;
  if (FrameFieldAttr field = promises.lookup(name))
    return {field};
  SmallVector<FrameFieldAttr> lanes;
  while (FrameFieldAttr lane =
             promises.lookup(getFrameFieldLaneName(name, lanes.size())))
    lanes.push_back(lane);
  return lanes;
}

LogicalResult SplitOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto coroutine =
      symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCoroutineAttr());
  if (!coroutine)
    return emitOpError("'")
           << getCoroutineAttr() << "' does not reference a 'coro.func'";
  for (Attribute attr : getSubroutines()) {
    auto name = cast<FlatSymbolRefAttr>(attr);
    auto subroutine =
        symbolTable.lookupNearestSymbolFrom<FunctionOpInterface>(*this, name);
    if (!subroutine)
      return emitOpError("subroutine '")
             << name << "' does not reference a function";
    ArrayRef<Type> inputs = subroutine.getArgumentTypes();
    if (inputs.empty() || !isa<FrameType>(inputs.front()) ||
        inputs.drop_front() != coroutine.getArgumentTypes())
      return emitOpError("subroutine ")
             << name << " must take (!coro.frame, "
             << "the arguments of " << getCoroutineAttr() << ")";
    if (subroutine.isExternal())
      return emitOpError("subroutine ") << name << " has no body";
    if (failed(verifyFrameAccesses(subroutine)))
      return failure();
  }
  return success();
}

LogicalResult SplitOp::verifyFrameAccesses(FunctionOpInterface subroutine) {
  SmallVector<FrameFieldAttr> fields = getFrameFields();
  auto check = [&](Operation *op, int64_t slot, Type type,
                   StringRef verb) -> LogicalResult {
    if (slot < 0 || slot >= static_cast<int64_t>(fields.size()))
      return op->emitOpError()
             << verb << " field " << slot << " but " << getCoroutineAttr()
             << " has " << fields.size() << " frame fields";
    if (fields[slot].getType() != type)
      return op->emitOpError()
             << verb << " a value of type " << type
             << (verb == "stores" ? " into" : " from") << " field " << slot
             << " ('" << fields[slot].getName().getValue() << "') of type "
             << fields[slot].getType();
    return success();
  };
  // Schedulers rewrite the frame's uses in place: only the frame ops may
  // use it (not a call, say, into a function they would not see).
  if (subroutine.getNumArguments() != 0)
    for (Operation *user : subroutine.getArgument(0).getUsers())
      if (!isa<FrameLoadOp, FrameStoreOp, FrameSetTargetOp, FrameIdOp>(user))
        return user->emitOpError()
               << "uses the frame of subroutine @" << subroutine.getName()
               << "; only coro.frame.load, coro.frame.store, "
                  "coro.frame.set_target and coro.frame.id may";
  WalkResult result = subroutine.walk([&](Operation *op) {
    LogicalResult checked = success();
    if (auto load = dyn_cast<FrameLoadOp>(op))
      checked = check(op, load.getSlot(), load.getType(), "reads");
    else if (auto store = dyn_cast<FrameStoreOp>(op))
      checked =
          check(op, store.getSlot(), store.getValue().getType(), "stores");
    return failed(checked) ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// TableGen'd op definitions
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "CoroGPU/Dialect/Coro/IR/CoroOps.cpp.inc"

std::string mlir::coro::formatSourceLocation(LocationAttr location) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLine = location.findInstanceOf<FileLineColLoc>())
    os << fileLine.getFilename().getValue() << ":" << fileLine.getLine() << ":"
       << fileLine.getColumn();
  else
    location.print(os);
  return text;
}
