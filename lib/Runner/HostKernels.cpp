//===- HostKernels.cpp - kernels of host programs, as gpu.binary objects --===//
//
// Part of the CoroGPU project.
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
