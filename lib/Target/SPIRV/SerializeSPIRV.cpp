//===- SerializeSPIRV.cpp - SPIR-V words of a spirv.module ----------------===//
//
// Part of the CoroGPU project.
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

#include "mlir/Target/SPIRV/Serialization.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-serialize-spirv"

using namespace mlir;

namespace {

// The opcodes this file reads or writes (SPIR-V specification, 3.52).
enum Opcode : uint32_t {
  OpName = 5,
  OpString = 7,
  OpExtension = 10,
  OpExtInstImport = 11,
  OpExtInst = 12,
  OpMemoryModel = 14,
  OpEntryPoint = 15,
  OpExecutionMode = 16,
  OpCapability = 17,
  OpFunction = 54,
  OpFunctionEnd = 56,
  OpFunctionCall = 57,
  OpExecutionModeId = 331,
};
constexpr unsigned kHeaderWords = 5;
constexpr unsigned kBoundWord = 3;
constexpr uint32_t kDebugPrintfInstruction = 1;
constexpr llvm::StringLiteral kNonSemanticInfo = "SPV_KHR_non_semantic_info";

/// The words of a SPIR-V literal string: UTF-8, nul-terminated, padded
/// with zeros to whole words, little-endian.
SmallVector<uint32_t> encodeString(StringRef text) {
  SmallVector<uint32_t> words(text.size() / 4 + 1, 0);
  for (auto [i, c] : llvm::enumerate(text))
    words[i / 4] |= uint32_t(static_cast<unsigned char>(c)) << (8 * (i % 4));
  return words;
}

/// The string at the start of `words` (an instruction's literal).
StringRef decodeString(ArrayRef<uint32_t> words) {
  const char *bytes = reinterpret_cast<const char *>(words.data());
  return StringRef(bytes, strnlen(bytes, words.size() * 4));
}

/// Appends an instruction of `opcode` and `operands`.
void append(SmallVectorImpl<uint32_t> &out, uint32_t opcode,
            ArrayRef<uint32_t> operands) {
  out.push_back(uint32_t(operands.size() + 1) << 16 | opcode);
  llvm::append_range(out, operands);
}

/// Whether `opcode` belongs to the sections before the debug instructions
/// (capabilities, extensions, imports, memory model, entry points,
/// execution modes), where the new string must not go.
bool isModuleHeader(uint32_t opcode) {
  return opcode == OpCapability || opcode == OpExtension ||
         opcode == OpExtInstImport || opcode == OpMemoryModel ||
         opcode == OpEntryPoint || opcode == OpExecutionMode ||
         opcode == OpExecutionModeId;
}

} // namespace

/// Rewrites the calls of the marker functions in `words` (`formats`: the
/// format of each marker function, by name).
static LogicalResult
lowerDebugPrintfCalls(spirv::ModuleOp module,
                      const llvm::StringMap<std::string> &formats,
                      SmallVectorImpl<uint32_t> &words) {
  if (words.size() < kHeaderWords)
    return module.emitError("serialized SPIR-V has no header");
  // Each instruction: its offset in `words`.
  SmallVector<size_t> instructions;
  for (size_t at = kHeaderWords; at < words.size();) {
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
    uint32_t opcode = words[at] & 0xffff, count = words[at] >> 16;
    ArrayRef<uint32_t> operands(words.data() + at + 1, count - 1);
    if (opcode == OpName && operands.size() >= 2) {
      auto format = formats.find(decodeString(operands.drop_front()));
      if (format != formats.end())
        markerFormats[operands[0]] = format->second;
    } else if (opcode == OpExtension &&
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

  SmallVector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out[kBoundWord] = bound;
  bool addedExtension = hasExtension, addedImport = false, addedStrings = false;
  bool inMarker = false;
  for (size_t at : instructions) {
    uint32_t opcode = words[at] & 0xffff, count = words[at] >> 16;
    ArrayRef<uint32_t> operands(words.data() + at + 1, count - 1);
    if (!addedExtension && opcode != OpCapability) {
      append(out, OpExtension, encodeString(kNonSemanticInfo));
      addedExtension = true;
    }
    if (!addedImport && opcode != OpCapability && opcode != OpExtension &&
        opcode != OpExtInstImport) {
      SmallVector<uint32_t> import = {importId};
      llvm::append_range(import, encodeString("NonSemantic.DebugPrintf"));
      append(out, OpExtInstImport, import);
      addedImport = true;
    }
    if (!addedStrings && !isModuleHeader(opcode)) {
      for (auto [id, text] : strings) {
        SmallVector<uint32_t> string = {id};
        llvm::append_range(string, encodeString(text));
        append(out, OpString, string);
      }
      addedStrings = true;
    }
    // The marker functions go, with their names.
    if (opcode == OpFunction && operands.size() >= 2 &&
        markerFormats.contains(operands[1]))
      inMarker = true;
    if (inMarker) {
      inMarker = opcode != OpFunctionEnd;
      continue;
    }
    if (opcode == OpName && markerFormats.contains(operands[0]))
      continue;
    if (opcode == OpFunctionCall && operands.size() >= 3) {
      auto format = markerFormats.find(operands[2]);
      if (format != markerFormats.end()) {
        // Result type (void) and id stay; the callee becomes the set, the
        // instruction and the format.
        SmallVector<uint32_t> call = {operands[0], operands[1], importId,
                                      kDebugPrintfInstruction,
                                      stringIds.lookup(format->second)};
        llvm::append_range(call, operands.drop_front(3));
        append(out, OpExtInst, call);
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
