//===- SerializeSPIRV.cpp - SPIR-V words of a spirv.module ----------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MLIR's SPIR-V dialect has no instruction of an extended set other than
// GLSL.std.450 and OpenCL.std, so coro-spirv-debug-printf leaves each print
// as a call of a marker function named for it; here, in the words, each
// such call becomes
//
//   %r = OpExtInst %void %debug_printf 1 %format %args...
//
// with %debug_printf = OpExtInstImport "NonSemantic.DebugPrintf" and
// %format an OpString, as glslang emits for GLSL's debugPrintfEXT.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/SerializeSPIRV.h"

#include "mlir/Target/SPIRV/SPIRVBinaryUtils.h"
#include "mlir/Target/SPIRV/Serialization.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-serialize-spirv"

using namespace mlir;

namespace {

using spirv::Opcode;

/// Not in MLIR's opcode enum (its serializer never emits it), but a section
/// of the module header all the same.
constexpr uint32_t kOpExecutionModeId = 331;
constexpr unsigned kBoundWord = 3;
constexpr uint32_t kDebugPrintfInstruction = 1;
constexpr llvm::StringLiteral kNonSemanticInfo = "SPV_KHR_non_semantic_info";

/// The words of a SPIR-V literal string.
SmallVector<uint32_t> encodeString(StringRef text) {
  SmallVector<uint32_t> words;
  spirv::encodeStringLiteralInto(words, text);
  return words;
}

/// The string at the start of `words` (an instruction's literal).
StringRef decodeString(ArrayRef<uint32_t> words) {
  const char *bytes = reinterpret_cast<const char *>(words.data());
  return StringRef(bytes, strnlen(bytes, words.size() * 4));
}

/// Appends an instruction of `opcode` and `operands`.
void append(SmallVectorImpl<uint32_t> &out, Opcode opcode,
            ArrayRef<uint32_t> operands) {
  out.push_back(spirv::getPrefixedOpcode(operands.size() + 1, opcode));
  llvm::append_range(out, operands);
}

/// The opcode of the instruction whose first word is `word`.
uint32_t getOpcode(uint32_t word) { return word & 0xffff; }

bool is(uint32_t opcode, Opcode which) {
  return opcode == static_cast<uint32_t>(which);
}

/// Whether `opcode` belongs to the sections before the debug instructions
/// (capabilities, extensions, imports, memory model, entry points,
/// execution modes), where the new string must not go.
bool isModuleHeader(uint32_t opcode) {
  return is(opcode, Opcode::OpCapability) || is(opcode, Opcode::OpExtension) ||
         is(opcode, Opcode::OpExtInstImport) ||
         is(opcode, Opcode::OpMemoryModel) ||
         is(opcode, Opcode::OpEntryPoint) ||
         is(opcode, Opcode::OpExecutionMode) || opcode == kOpExecutionModeId;
}

} // namespace

/// Rewrites the calls of the marker functions in `words` (`formats`: the
/// format of each marker function, by name).
static LogicalResult
lowerDebugPrintfCalls(spirv::ModuleOp module,
                      const llvm::StringMap<std::string> &formats,
                      SmallVectorImpl<uint32_t> &words) {
  if (words.size() < spirv::kHeaderWordCount)
    return module.emitError("serialized SPIR-V has no header");
  // Each instruction: its offset in `words`.
  SmallVector<size_t> instructions;
  for (size_t at = spirv::kHeaderWordCount; at < words.size();) {
    uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size())
      return module.emitError("serialized SPIR-V has a malformed instruction "
                              "at word ")
             << at;
    instructions.push_back(at);
    at += count;
  }
  // The marker functions by result id, and whether the extension is there.
  llvm::DenseMap<uint32_t, StringRef> markerFormats;
  bool hasExtension = false;
  for (size_t at : instructions) {
    uint32_t opcode = getOpcode(words[at]), count = words[at] >> 16;
    ArrayRef<uint32_t> operands(words.data() + at + 1, count - 1);
    if (is(opcode, Opcode::OpName) && operands.size() >= 2) {
      auto format = formats.find(decodeString(operands.drop_front()));
      if (format != formats.end())
        markerFormats[operands[0]] = format->second;
    } else if (is(opcode, Opcode::OpExtension) &&
               decodeString(operands) == kNonSemanticInfo) {
      hasExtension = true;
    }
  }
  if (markerFormats.empty())
    return module.emitError("coro-spirv-debug-printf's functions have no "
                            "OpName in the serialized SPIR-V");

  uint32_t bound = words[kBoundWord];
  uint32_t importId = bound++;
  llvm::StringMap<uint32_t> stringIds;
  SmallVector<std::pair<uint32_t, StringRef>> strings;
  for (auto &[function, format] : markerFormats) {
    auto [it, inserted] = stringIds.try_emplace(format, bound);
    if (inserted) {
      strings.push_back({bound, format});
      ++bound;
    }
  }
  llvm::sort(strings);

  SmallVector<uint32_t> out(words.begin(),
                            words.begin() + spirv::kHeaderWordCount);
  out[kBoundWord] = bound;
  bool addedExtension = hasExtension, addedImport = false, addedStrings = false;
  bool inMarker = false;
  for (size_t at : instructions) {
    uint32_t opcode = getOpcode(words[at]), count = words[at] >> 16;
    ArrayRef<uint32_t> operands(words.data() + at + 1, count - 1);
    if (!addedExtension && !is(opcode, Opcode::OpCapability)) {
      append(out, Opcode::OpExtension, encodeString(kNonSemanticInfo));
      addedExtension = true;
    }
    if (!addedImport && !is(opcode, Opcode::OpCapability) &&
        !is(opcode, Opcode::OpExtension) &&
        !is(opcode, Opcode::OpExtInstImport)) {
      SmallVector<uint32_t> import = {importId};
      llvm::append_range(import, encodeString("NonSemantic.DebugPrintf"));
      append(out, Opcode::OpExtInstImport, import);
      addedImport = true;
    }
    if (!addedStrings && !isModuleHeader(opcode)) {
      for (auto [id, text] : strings) {
        SmallVector<uint32_t> string = {id};
        llvm::append_range(string, encodeString(text));
        append(out, Opcode::OpString, string);
      }
      addedStrings = true;
    }
    // The marker functions go, with their names.
    if (is(opcode, Opcode::OpFunction) && operands.size() >= 2 &&
        markerFormats.contains(operands[1]))
      inMarker = true;
    if (inMarker) {
      inMarker = !is(opcode, Opcode::OpFunctionEnd);
      continue;
    }
    if (is(opcode, Opcode::OpName) && markerFormats.contains(operands[0]))
      continue;
    if (is(opcode, Opcode::OpFunctionCall) && operands.size() >= 3) {
      auto format = markerFormats.find(operands[2]);
      if (format != markerFormats.end()) {
        // Result type (void) and id stay; the callee becomes the set, the
        // instruction and the format.
        SmallVector<uint32_t> call = {operands[0], operands[1], importId,
                                      kDebugPrintfInstruction,
                                      stringIds.lookup(format->second)};
        llvm::append_range(call, operands.drop_front(3));
        append(out, Opcode::OpExtInst, call);
        continue;
      }
    }
    out.append(words.begin() + at, words.begin() + at + count);
  }
  LDBG() << markerFormats.size() << " print(s) of " << strings.size()
         << " format(s) as NonSemantic.DebugPrintf";
  words.assign(out.begin(), out.end());
  return success();
}

LogicalResult mlir::coro::serializeSPIRV(spirv::ModuleOp module,
                                         SmallVectorImpl<uint32_t> &words) {
  words.clear();
  if (failed(spirv::serialize(module, words)))
    return failure();
  llvm::StringMap<std::string> formats;
  module.walk([&](spirv::FuncOp function) {
    if (auto format =
            function->getAttrOfType<StringAttr>(kDebugPrintfFormatAttrName))
      formats[function.getSymName()] = format.str();
  });
  if (formats.empty())
    return success();
  return lowerDebugPrintfCalls(module, formats, words);
}
