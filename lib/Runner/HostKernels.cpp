//===- HostKernels.cpp - kernels of host programs, as gpu.binary objects --===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/HostKernels.h"
#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::runner;

std::string mlir::coro::runner::encodeHostKernels(ArrayAttr descriptor,
                                                  StringRef image) {
  std::string object = kHostKernelsMagic.str();
  llvm::raw_string_ostream os(object);
  descriptor.print(os);
  os << '\0' << image;
  return object;
}

llvm::Expected<HostKernels>
mlir::coro::runner::decodeHostKernels(StringRef object, MLIRContext *context) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "not an object of host kernels (" + why +
                                       "); compile the host program with "
                                       "coro-host-to-llvm");
  };
  if (!object.consume_front(kHostKernelsMagic))
    return fail("it does not start with \"" + kHostKernelsMagic.drop_back() +
                "\"");
  size_t end = object.find('\0');
  if (end == StringRef::npos)
    return fail("no end to its descriptor");
  std::string diagnostic;
  Attribute parsed;
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      diagnostic = diag.str();
      return success();
    });
    parsed = parseAttribute(object.take_front(end), context);
  }
  auto descriptor = dyn_cast_or_null<ArrayAttr>(parsed);
  if (!descriptor || descriptor.empty() ||
      !(llvm::all_of(descriptor, llvm::IsaPred<plan::HostKernelAttr>) ||
        (descriptor.size() == 1 &&
         isa<plan::HostCoroutineAttr>(descriptor[0]))))
    return fail("a bad descriptor" +
                (diagnostic.empty() ? "" : ": " + diagnostic));
  return HostKernels{descriptor, object.drop_front(end + 1)};
}

std::string mlir::coro::runner::checkHostMemRef(MemRefType type,
                                                const KernelTarget &target) {
  std::string text;
  llvm::raw_string_ostream os(text);
  Type element = type.getElementType();
  // An i1 is a byte, 0 or 1, in host memory and in kernels alike.
  bool layoutAlike =
      element.isInteger(1) || (element.isIntOrFloat() && !element.isIndex() &&
                               element.getIntOrFloatBitWidth() >= 8 &&
                               element.getIntOrFloatBitWidth() <= 64 &&
                               element.getIntOrFloatBitWidth() % 8 == 0 &&
                               !(element.isBF16() && target.isSPIRV()));
  if (!layoutAlike) {
    os << type << " holds elements of " << element
       << ", which host and kernels lay out differently; pass i1, integers "
          "of 8 to 64 bits, f16, f32 or f64";
    if (element.isIndex())
      os << " (an index is 32 bits in SPIR-V kernels and 64 in PTX ones: "
            "use i32 or i64)";
    else if (isa<VectorType>(element))
      os << " (use a memref of scalars and vector.load / vector.store)";
    else if (element.isBF16())
      os << " (keep bf16 values as i16: arith.bitcast)";
    return text;
  }
  if (type.getRank() > 1 && !type.hasStaticShape()) {
    os << type << " has more than one dimension and a dynamic shape; pass it "
       << "flattened, as " << MemRefType::get({ShapedType::kDynamic}, element);
    return text;
  }
  return {};
}
