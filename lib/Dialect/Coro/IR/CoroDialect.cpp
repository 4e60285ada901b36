//===- CoroDialect.cpp - The coro dialect ---------------------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/IR/CoroDialect.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

using namespace mlir;
using namespace mlir::coro;

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include "CoroGPU/Dialect/Coro/IR/CoroDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "CoroGPU/Dialect/Coro/IR/CoroTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "CoroGPU/Dialect/Coro/IR/CoroAttrs.cpp.inc"

void CoroDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "CoroGPU/Dialect/Coro/IR/CoroTypes.cpp.inc"
      >();
}

void CoroDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "CoroGPU/Dialect/Coro/IR/CoroAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// FrameFieldAttr
//===----------------------------------------------------------------------===//

int64_t FrameFieldAttr::getStorageBits(Type type) {
  if (isa<IndexType>(type))
    return 64;
  int64_t bits = type.getIntOrFloatBitWidth();
  if (bits == 1)
    return 1;
  if (bits <= 8)
    return 8;
  if (bits <= 16)
    return 16;
  return llvm::alignTo(bits, 32);
}

bool FrameFieldAttr::overlaps(FrameFieldAttr other) const {
  int64_t begin = getFirstBit(), otherBegin = other.getFirstBit();
  return begin < otherBegin + other.getStorageBits() &&
         otherBegin < begin + getStorageBits();
}

/// #coro.field<"name" : type at word[:bit][ loc(...)][, promise]>
Attribute FrameFieldAttr::parse(AsmParser &parser, Type) {
  std::string name;
  Type type;
  int64_t word = 0, bit = 0;
  bool promise = false;
  if (parser.parseLess() || parser.parseString(&name) || parser.parseColon() ||
      parser.parseType(type) || parser.parseKeyword("at") ||
      parser.parseInteger(word))
    return {};
  if (succeeded(parser.parseOptionalColon()) && parser.parseInteger(bit))
    return {};
  LocationAttr location;
  Attribute locationText;
  SMLoc locationAt = parser.getCurrentLocation();
  OptionalParseResult parsedLocation =
      parser.parseOptionalAttribute(locationText);
  if (parsedLocation.has_value()) {
    if (failed(*parsedLocation))
      return {};
    location = dyn_cast<LocationAttr>(locationText);
    if (!location) {
      parser.emitError(locationAt, "expected a location, loc(...)");
      return {};
    }
  }
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("promise"))
      return {};
    promise = true;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<FrameFieldAttr>(
      parser.getContext(), StringAttr::get(parser.getContext(), name), type,
      word, bit, promise, location);
}

void FrameFieldAttr::print(AsmPrinter &printer) const {
  printer << "<\"";
  llvm::printEscapedString(getName().getValue(), printer.getStream());
  printer << "\" : " << getType() << " at " << getWord();
  if (getBit() != 0)
    printer << ":" << getBit();
  if (getLocation())
    printer << " " << Attribute(getLocation());
  if (getPromise())
    printer << ", promise";
  printer << ">";
}

LogicalResult
FrameFieldAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       StringAttr name, Type type, int64_t word, int64_t bit,
                       bool promise, LocationAttr) {
  if (!type.isSignlessIntOrIndexOrFloat())
    return emitError() << "frame field '" << name.getValue() << "' has type "
                       << type
                       << "; fields are signless integers, floats or index";
  if (word < kFirstFieldWord)
    return emitError() << "frame field '" << name.getValue() << "' at word "
                       << word << " overlaps the special fields (words 0-"
                       << kFirstFieldWord - 1 << ")";
  int64_t bits = getStorageBits(type);
  if (bit < 0 || (bits >= 32 && bit != 0) ||
      (bits < 32 && (bit % bits != 0 || bit + bits > 32)))
    return emitError() << "frame field '" << name.getValue() << "' of " << bits
                       << " bits cannot start at bit " << bit << " of a word";
  return success();
}

//===----------------------------------------------------------------------===//
// BoundsCheckAttr
//===----------------------------------------------------------------------===//

LogicalResult
BoundsCheckAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned argument, unsigned records,
                        ArrayAttr resumePoints, ArrayAttr sites) {
  if (records == 0)
    return emitError() << "a bounds check needs room for at least one record";
  if (resumePoints.empty() ||
      !llvm::all_of(resumePoints, llvm::IsaPred<StringAttr>))
    return emitError() << "the resume points of a bounds check are strings, "
                          "the first being the coroutine's start";
  if (!llvm::all_of(sites, llvm::IsaPred<BoundsSiteAttr>))
    return emitError() << "the sites of a bounds check are #coro.bounds_site";
  return success();
}

LogicalResult
LaneProfileAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned argument, ArrayAttr functions,
                        ArrayAttr sites) {
  if (functions.empty() || !llvm::all_of(functions, llvm::IsaPred<StringAttr>))
    return emitError() << "the functions of a lane profile are their names, "
                          "at least one";
  for (Attribute site : sites) {
    auto profileSite = dyn_cast<ProfileSiteAttr>(site);
    if (!profileSite)
      return emitError() << "the sites of a lane profile are "
                            "#coro.profile_site";
    if (profileSite.getFunction() >= functions.size())
      return emitError() << "a profile site is in function "
                         << profileSite.getFunction() << " of "
                         << functions.size();
  }
  return success();
}

LaneProfileAttr LaneProfileAttr::lookup(Operation *module,
                                        StringRef coroutine) {
  auto profiles = module->getAttrOfType<DictionaryAttr>(kAttrName);
  return profiles ? profiles.getAs<LaneProfileAttr>(coroutine)
                  : LaneProfileAttr();
}

void CoroDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "CoroGPU/Dialect/Coro/IR/CoroOps.cpp.inc"
      >();
}
