//===- SPIRVDebugPrintf.cpp - gpu.printf for Vulkan shaders ---------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

/// `print`'s format as the validation layer's DebugPrintf (1.3.239) reads
/// it with the arguments this pass passes, or an error (in `error`) where
/// the layer would print something else: it prints numbers only; it reads a
/// 64-bit integer only with %lu, %lx, %lX or %lo, and any other conversion
/// of one as one word, and every later argument from the wrong place; it
/// knows no `*` width and a NUL ends its string. An `l` before a float
/// conversion (%lf, C's double) is dropped: doubles go as f32.
static std::string getLayerFormat(gpu::PrintfOp print, std::string &error) {
  StringRef format = print.getFormat();
  if (format.contains('\0')) {
    error = "its format contains a NUL character";
    return {};
  }
  OperandRange args = print.getArgs();
  std::string result;
  unsigned next = 0;
  for (size_t at = 0; at < format.size(); ++at) {
    result.push_back(format[at]);
    if (format[at] != '%')
      continue;
    if (at + 1 < format.size() && format[at + 1] == '%') {
      result.push_back(format[++at]);
      continue;
    }
    // Flags, width and precision.
    size_t spec = at + 1;
    while (spec < format.size() &&
           StringRef("-+ #0123456789.*").contains(format[spec]))
      ++spec;
    StringRef body = format.slice(at + 1, spec);
    size_t modifierEnd = spec;
    while (modifierEnd < format.size() &&
           StringRef("hlLqjzt").contains(format[modifierEnd]))
      ++modifierEnd;
    StringRef modifier = format.slice(spec, modifierEnd);
    if (modifierEnd >= format.size()) {
      error = "its format ends inside a conversion";
      return {};
    }
    char conversion = format[modifierEnd];
    std::string which = ("%" + body + modifier + Twine(conversion)).str();
    if (body.contains('*')) {
      error = "conversion " + which +
              " takes its width from an argument, "
              "which DebugPrintf cannot";
      return {};
    }
    bool integer = StringRef("diouxX").contains(conversion);
    bool floating = StringRef("fFeEgGaA").contains(conversion);
    if (!integer && !floating) {
      error = "conversion " + which +
              " prints no number; DebugPrintf prints "
              "integers (d i o u x X) and floats (f F e E g G a A)";
      return {};
    }
    if (next >= args.size()) {
      error = "its format has more conversions than the " +
              std::to_string(args.size()) + " argument(s)";
      return {};
    }
    Type type = args[next].getType();
    std::string argument = "argument #" + std::to_string(next);
    ++next;
    bool wide = type.isInteger(64);
    if (integer && !type.isIntOrIndex()) {
      error = argument + " is not an integer, but its conversion is " + which;
      return {};
    }
    if (floating && !isa<FloatType>(type)) {
      error = argument + " is not a float, but its conversion is " + which;
      return {};
    }
    if (!modifier.empty() && modifier != "l") {
      error = "conversion " + which +
              " has a length DebugPrintf does not read "
              "(only l, of 64-bit integers)";
      return {};
    }
    if (integer && wide != (modifier == "l")) {
      error = wide ? argument + " is a 64-bit integer: print it with %lu or "
                                "%lx (cast it to i32 for %d)"
                   : argument +
                         " is not a 64-bit integer, but its "
                         "conversion is " +
                         which;
      return {};
    }
    if (wide && !StringRef("uxXo").contains(conversion)) {
      error = argument + " is a 64-bit integer: print it with %lu or %lx "
                         "(DebugPrintf reads no signed 64-bit conversion; "
                         "cast it to i32 for %d)";
      return {};
    }
    // Doubles go as f32: no `l` there.
    result.append(body.str());
    if (integer)
      result.append(modifier.str());
    result.push_back(conversion);
    at = modifierEnd;
  }
  if (next != args.size()) {
    error = "its format has " + std::to_string(next) + " conversion(s) for " +
            std::to_string(args.size()) + " argument(s)";
    return {};
  }
  return result;
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
      std::string why;
      std::string format = getLayerFormat(print, why);
      if (!why.empty()) {
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
      marker->setAttr(coro::kDebugPrintfFormatAttrName,
                      builder.getStringAttr(format));
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
