//===- CPUReference.cpp - a coroutine run on the CPU, apart from the split ===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/CPUReference.h"
#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Runner/KernelABI.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/TargetSelect.h"

#include <cstring>

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::runner;

namespace {

/// The wrapper the JIT calls: it launches the coroutine over the grid.
constexpr llvm::StringLiteral kEntryName = "__coro_cpu_reference";

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "--check=cpu: " + message);
}

/// The value of an integer or float of `type` whose host bytes start at
/// `bytes`.
TypedAttr getScalarAttr(Type type, const uint8_t *bytes) {
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  uint64_t bits = 0;
  std::memcpy(&bits, bytes, llvm::divideCeil(width, 8));
  llvm::APInt value(width, width == 1 ? bits & 1 : bits);
  if (auto floatType = dyn_cast<FloatType>(type))
    return FloatAttr::get(type,
                          llvm::APFloat(floatType.getFloatSemantics(), value));
  return IntegerAttr::get(type, value);
}

/// The constant of scalar argument #`argument` of `type` from its text.
llvm::Expected<TypedAttr> getArgumentAttr(StringRef text, Type type,
                                          unsigned argument) {
  llvm::Expected<std::vector<uint8_t>> host =
      parseHostArgument(text, type, argument);
  if (!host)
    return host.takeError();
  auto vector = dyn_cast<VectorType>(type);
  if (!vector)
    return getScalarAttr(type, host->data());
  Type elementType = vector.getElementType();
  size_t elementBytes =
      elementType.isIndex()
          ? 8
          : llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
  SmallVector<Attribute> elements;
  for (int64_t i = 0; i < vector.getNumElements(); ++i)
    elements.push_back(
        getScalarAttr(elementType, host->data() + i * elementBytes));
  return DenseElementsAttr::get(vector, elements);
}

/// A memref of one dimension as the C interface of the LLVM lowering
/// passes it.
struct MemRefDescriptor1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};

} // namespace

llvm::Expected<std::vector<HostBuffer>> mlir::coro::runner::runCPUReference(
    ModuleOp source, StringRef coroutine, std::array<uint32_t, 3> grid,
    ArrayRef<std::string> scalars, ArrayRef<HostBuffer> buffers) {
  MLIRContext *context = source.getContext();
  OwningOpRef<ModuleOp> module = source.clone();
  auto function = module->lookupSymbol<FuncOp>(coroutine);
  if (!function)
    return fail("no coroutine @" + coroutine);
  // Only what the coroutine reaches: a host function or another coroutine
  // of the module (one with handles, say) does not stand in the way. A
  // split made by hand is left out: the reference runs the bodies.
  for (SplitOp split : llvm::make_early_inc_range(module->getOps<SplitOp>()))
    split.erase();
  // What the kernels print is not a result: the reference prints nothing.
  module->walk([](gpu::PrintfOp print) { print.erase(); });
  SymbolTable symbols(*module);
  llvm::SmallPtrSet<Operation *, 16> reached = {function};
  SmallVector<Operation *> worklist = {function};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses)
      if (Operation *symbol =
              symbols.lookup(use.getSymbolRef().getRootReference().getValue()))
        if (reached.insert(symbol).second)
          worklist.push_back(symbol);
  }
  for (Operation &op : llvm::make_early_inc_range(*module->getBody()))
    if (isa<SymbolOpInterface>(op) && !reached.contains(&op))
      op.erase();

  // Loops over generators it runs in place; frames that handles resume
  // between suspension points exist only in the split.
  Operation *handleOp = nullptr;
  module->walk([&](Operation *op) {
    if (!getDrivenCoroutine(op) || isa<ForEachOp>(op))
      return WalkResult::advance();
    handleOp = op;
    return WalkResult::interrupt();
  });
  if (handleOp)
    return fail("the CPU reference cannot run frames that handles drive ('" +
                handleOp->getName().getStringRef() + "' at " +
                formatSourceLocation(handleOp->getLoc()) +
                "): check this coroutine against the mega-kernel (--check)");

  // func.func @__coro_cpu_reference(<the memrefs>) {
  //   coro.launch @coroutine[grid](<the scalars as constants>, <memrefs>)
  // }
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module->getBody());
  Location loc = function.getLoc();
  SmallVector<Type> memrefTypes;
  for (auto [position, type] : llvm::enumerate(function.getArgumentTypes())) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      continue;
    if (memref.getRank() != 1)
      return fail("argument #" + llvm::Twine(position) + " is a memref of " +
                  llvm::Twine(memref.getRank()) +
                  " dimensions; the CPU reference takes memrefs of one");
    memrefTypes.push_back(memref);
  }
  if (memrefTypes.size() != buffers.size())
    return fail("@" + coroutine + " takes " + llvm::Twine(memrefTypes.size()) +
                " memrefs, but " + llvm::Twine(buffers.size()) +
                " buffers are given");
  auto entry = func::FuncOp::create(builder, loc, kEntryName,
                                    builder.getFunctionType(memrefTypes, {}));
  entry->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                 builder.getUnitAttr());
  Block *body = entry.addEntryBlock();
  builder.setInsertionPointToStart(body);
  SmallVector<Value> args;
  unsigned scalar = 0, memref = 0;
  for (auto [position, type] : llvm::enumerate(function.getArgumentTypes())) {
    if (isa<MemRefType>(type)) {
      args.push_back(body->getArgument(memref++));
      continue;
    }
    if (scalar >= scalars.size())
      return fail("argument #" + llvm::Twine(position) + " has no value");
    llvm::Expected<TypedAttr> value =
        getArgumentAttr(scalars[scalar++], type, position);
    if (!value)
      return value.takeError();
    args.push_back(arith::ConstantOp::create(builder, loc, *value));
  }
  SmallVector<Value> extents;
  for (uint32_t extent : grid)
    extents.push_back(arith::ConstantIndexOp::create(builder, loc, extent));
  LaunchOp::create(builder, loc, FlatSymbolRefAttr::get(function), extents,
                   args);
  func::ReturnOp::create(builder, loc);

  // Our two passes, then upstream ones only.
  PassManager pm(context);
  pm.addPass(createCoroInlineGenerators());
  pm.addPass(createCoroMegakernelToFunc());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (failed(pm.run(*module)))
    return fail("lowering the CPU reference failed (see above)");

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  context->appendDialectRegistry(registry);
  ExecutionEngineOptions options;
  options.transformer = makeOptimizingTransformer(
      /*optLevel=*/2, /*sizeLevel=*/0, /*targetMachine=*/nullptr);
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine)
    return fail("the JIT failed: " + llvm::toString(engine.takeError()));

  std::vector<HostBuffer> results(buffers.begin(), buffers.end());
  std::vector<MemRefDescriptor1D> descriptors;
  descriptors.reserve(results.size());
  for (HostBuffer &buffer : results)
    descriptors.push_back({buffer.bytes.data(), buffer.bytes.data(), 0,
                           static_cast<int64_t>(buffer.count), 1});
  std::vector<MemRefDescriptor1D *> pointers;
  pointers.reserve(descriptors.size());
  for (MemRefDescriptor1D &descriptor : descriptors)
    pointers.push_back(&descriptor);
  SmallVector<void *> packed;
  for (MemRefDescriptor1D *&pointer : pointers)
    packed.push_back(&pointer);
  if (llvm::Error error =
          (*engine)->invokePacked(("_mlir_ciface_" + kEntryName).str(), packed))
    return fail("running the CPU reference failed: " +
                llvm::toString(std::move(error)));
  return results;
}
