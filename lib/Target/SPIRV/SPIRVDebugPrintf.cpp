//===- SPIRVDebugPrintf.cpp - gpu.printf for Vulkan shaders ---------------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//
//
// Makes each gpu.printf a call of a marker function that serializeSPIRV
// turns into a NonSemantic.DebugPrintf instruction (see the pass
// description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"
#include "CoroGPU/Target/SerializeSPIRV.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/Builders.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-spirv-debug-printf"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVDEBUGPRINTF
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

/// Whether DebugPrintf prints `type` as it is: 32- or 64-bit integers and
/// 32-bit floats. (It also prints vectors, which gpu.printf does not take.)
static bool isPrintable(Type type) {
  return type.isInteger(32) || type.isInteger(64) || type.isF32();
}

/// `value` as a type DebugPrintf prints, or null (with an error at `print`).
static Value toPrintable(OpBuilder &builder, gpu::PrintfOp print, Value value) {
  Location loc = print.getLoc();
  Type type = value.getType();
  if (isPrintable(type))
    return value;
  if (type.isIndex())
    return arith::IndexCastOp::create(builder, loc, builder.getI32Type(),
                                      value);
  if (type.isInteger(1))
    return arith::ExtUIOp::create(builder, loc, builder.getI32Type(), value);
  if (type.isInteger(8) || type.isInteger(16))
    return arith::ExtSIOp::create(builder, loc, builder.getI32Type(), value);
  if (type.isF16() || type.isBF16())
    return arith::ExtFOp::create(builder, loc, builder.getF32Type(), value);
  if (type.isF64())
    return arith::TruncFOp::create(builder, loc, builder.getF32Type(), value);
  print.emitOpError("cannot print an argument of type ")
      << type
      << " on Vulkan: NonSemantic.DebugPrintf takes 32- and 64-bit integers "
         "and floats";
  return {};
}

/// The conversions of a printf format, in order: each one's length
/// modifier ("", "l", "ll", "h", ...) and conversion character; "%%" left
/// out.
static SmallVector<std::pair<StringRef, char>>
getConversions(StringRef format) {
  SmallVector<std::pair<StringRef, char>> conversions;
  for (size_t at = 0; at < format.size(); ++at) {
    if (format[at] != '%')
      continue;
    size_t start = ++at;
    if (at < format.size() && format[at] == '%')
      continue;
    // Flags, width, precision.
    while (at < format.size() &&
           StringRef("-+ #0123456789.").contains(format[at]))
      ++at;
    size_t modifier = at;
    while (at < format.size() && StringRef("hlLqjzt").contains(format[at]))
      ++at;
    if (at >= format.size())
      break;
    (void)start;
    conversions.push_back({format.slice(modifier, at), format[at]});
  }
  return conversions;
}

/// Why the validation layer would print `print` wrong, or empty: its
/// DebugPrintf (1.3.239) reads a 64-bit integer only with %lu or %lx (and
/// %lX, %lo), anything else one word of it, and then every later argument
/// from the wrong place.
static std::string checkFormat(gpu::PrintfOp print) {
  SmallVector<std::pair<StringRef, char>> conversions =
      getConversions(print.getFormat());
  if (conversions.size() != print.getArgs().size())
    return ("its format has " + llvm::Twine(conversions.size()) +
            " conversion(s) for " + llvm::Twine(print.getArgs().size()) +
            " argument(s)")
        .str();
  for (auto [index, pair] : llvm::enumerate(conversions)) {
    auto [modifier, conversion] = pair;
    bool wide = print.getArgs()[index].getType().isInteger(64);
    bool longModifier = modifier == "l" || modifier == "ll";
    if (wide && !(modifier == "l" && StringRef("uxXo").contains(conversion)))
      return ("argument #" + llvm::Twine(index) +
              " is a 64-bit integer: print it with %lu or %lx (the "
              "validation layer's DebugPrintf reads no other 64-bit "
              "conversion; cast it to i32 for %d)")
          .str();
    if (!wide && longModifier)
      return ("argument #" + llvm::Twine(index) +
              " is not a 64-bit integer, but its conversion is %" + modifier +
              Twine(conversion))
          .str();
  }
  return {};
}

namespace {

struct CoroSPIRVDebugPrintfPass
    : coro::impl::CoroSPIRVDebugPrintfBase<CoroSPIRVDebugPrintfPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SmallVector<gpu::PrintfOp> prints;
    module.walk([&](gpu::PrintfOp print) { prints.push_back(print); });
    OpBuilder atModule = OpBuilder::atBlockBegin(module.getBody());
    for (auto [index, print] : llvm::enumerate(prints)) {
      if (std::string why = checkFormat(print); !why.empty()) {
        print.emitOpError("cannot print on Vulkan as written: ") << why;
        return signalPassFailure();
      }
      OpBuilder builder(print);
      SmallVector<Value> args;
      for (Value arg : print.getArgs()) {
        Value printable = toPrintable(builder, print, arg);
        if (!printable)
          return signalPassFailure();
        args.push_back(printable);
      }
      // One marker function per print: each has its own format and types.
      std::string name = "__coro_debug_printf_" + std::to_string(index);
      auto type = builder.getFunctionType(ValueRange(args).getTypes(), {});
      auto marker = spirv::FuncOp::create(atModule, print.getLoc(), name, type);
      marker->setAttr(coro::kDebugPrintfFormatAttrName, print.getFormatAttr());
      OpBuilder body = OpBuilder::atBlockBegin(marker.addEntryBlock());
      spirv::ReturnOp::create(body, print.getLoc());
      LDBG() << "printing " << print << " through @" << name;
      spirv::FunctionCallOp::create(builder, print.getLoc(), Type(),
                                    SymbolRefAttr::get(marker), args);
      print.erase();
      ++numPrints;
    }
  }
};

} // namespace
