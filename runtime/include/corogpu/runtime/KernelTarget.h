//===- KernelTarget.h - what kernels are compiled for -----------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Kernels are compiled either to SPIR-V (Vulkan) or to PTX for one NVIDIA
// chip (CUDA). The devices say which they load (Device::getTarget), the
// Runner compiles for it, host programs name it in their plans
// (#coro_plan.host_coroutine<..., target = "spirv", ...>) and the runtime
// wrappers check it. One type and one spelling for all of them: "spirv", or
// the chip ("sm_90"). Plain C++ with no dependencies, so that the compiler
// (MLIR) and the runtime (no MLIR) both include it.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_KERNELTARGET_H
#define COROGPU_RUNTIME_KERNELTARGET_H

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace corogpu::runtime {

class KernelTarget {
public:
  enum class Kind { SPIRV, PTX };

  /// SPIR-V, for Vulkan.
  KernelTarget() = default;
  static KernelTarget getSPIRV() { return KernelTarget(); }
  /// PTX for `chip` (an isNVIDIAChipName name, e.g. "sm_90").
  static KernelTarget getPTX(std::string chip) {
    return KernelTarget(Kind::PTX, std::move(chip));
  }

  /// Whether `name` has the form of an NVIDIA chip: "sm_" then digits, and
  /// at most one suffix letter, "a" or "f" (sm_90a, sm_100f). Which of them
  /// a compiler supports is its own question (coro::isNVVMChip).
  static bool isNVIDIAChipName(std::string_view name) {
    constexpr std::string_view prefix = "sm_";
    if (name.substr(0, prefix.size()) != prefix)
      return false;
    name.remove_prefix(prefix.size());
    if (!name.empty() && (name.back() == 'a' || name.back() == 'f'))
      name.remove_suffix(1);
    if (name.empty())
      return false;
    for (char c : name)
      if (c < '0' || c > '9')
        return false;
    return true;
  }

  /// The target `name` spells ("spirv" or an NVIDIA chip), if any.
  static std::optional<KernelTarget> parse(std::string_view name) {
    if (name == "spirv")
      return getSPIRV();
    if (isNVIDIAChipName(name))
      return getPTX(std::string(name));
    return std::nullopt;
  }

  Kind getKind() const { return kind; }
  bool isSPIRV() const { return kind == Kind::SPIRV; }
  bool isPTX() const { return kind == Kind::PTX; }
  /// The NVIDIA chip of a PTX target; empty for SPIR-V.
  const std::string &getChip() const { return chip; }

  /// The spelling parse takes: "spirv" or the chip.
  std::string str() const { return isSPIRV() ? std::string("spirv") : chip; }

  friend bool operator==(const KernelTarget &lhs, const KernelTarget &rhs) {
    return lhs.kind == rhs.kind && lhs.chip == rhs.chip;
  }
  friend bool operator!=(const KernelTarget &lhs, const KernelTarget &rhs) {
    return !(lhs == rhs);
  }

private:
  KernelTarget(Kind kind, std::string chip)
      : kind(kind), chip(std::move(chip)) {}

  Kind kind = Kind::SPIRV;
  std::string chip;
};

} // namespace corogpu::runtime

#endif // COROGPU_RUNTIME_KERNELTARGET_H
