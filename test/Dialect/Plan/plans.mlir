// RUN: coro-opt %s | coro-opt | FileCheck %s

// The plans a scheduler pass leaves round-trip through the printer and the
// parser, parameters in declaration order.
// CHECK:      module attributes {
// CHECK-SAME:   coro.megakernel = {f = #coro_plan.megakernel<workgroupSize = 64>}
// CHECK-SAME:   coro.persistent = {f = #coro_plan.persistent<workgroupSize = 64, tokens = 2, frameWords = 3, batch = 256, sharedSlots = 200, workgroupBytes = 4096, layout = "aos", subroutines = ["entry", "s1"]>}
// CHECK-SAME:   coro.state_machine = {f = #coro_plan.state_machine<workgroupSize = 128, frameWords = 5, stepsPerLaunch = 4, subroutines = ["entry", "hit"]>}
// CHECK-SAME:   coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 8, frameWords = 4, layout = "soa", subroutines = ["entry", "next"], design = "classify">, g = #coro_plan.wavefront<workgroupSize = 64, tokens = 3, categories = 3, frameWords = 2, layout = "aos", subroutines = ["entry", "a", "b"]>, h = #coro_plan.wavefront<workgroupSize = 64, tokens = 2, categories = 2, frameWords = 3, layout = "aosoa", subroutines = ["entry", "a"], tailBelow = 10>}
module attributes {
  coro.megakernel = {f = #coro_plan.megakernel<workgroupSize = 64>},
  coro.state_machine = {f = #coro_plan.state_machine<workgroupSize = 128, frameWords = 5, stepsPerLaunch = 4, subroutines = ["entry", "hit"]>},
  coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 8, frameWords = 4, layout = "soa", subroutines = ["entry", "next"], design = "classify">,
                    g = #coro_plan.wavefront<workgroupSize = 64, tokens = 3, categories = 3, frameWords = 2, layout = "aos", subroutines = ["entry", "a", "b"], design = "queues">,
                    h = #coro_plan.wavefront<workgroupSize = 64, tokens = 2, categories = 2, frameWords = 3, layout = "aosoa", subroutines = ["entry", "a"], tailBelow = 10>},
  coro.persistent = {f = #coro_plan.persistent<workgroupSize = 64, tokens = 2, frameWords = 3, batch = 256, sharedSlots = 200, workgroupBytes = 4096, layout = "aos", subroutines = ["entry", "s1"]>}
} {
}

// The plans of host programs name their kernels' target as the runtime
// spells it: "spirv" or an NVIDIA chip.
// CHECK-LABEL: module @host
// CHECK-SAME:    coro.host = [#coro_plan.host_coroutine<name = "f", functionType = (i32) -> (), target = "sm_90a", plan = #coro_plan.megakernel<workgroupSize = 64>>, #coro_plan.host_kernel<name = "k", functionType = () -> (), target = "spirv", workgroupSize = [8, 1, 1]>]
module @host attributes {
  coro.host = [#coro_plan.host_coroutine<name = "f", functionType = (i32) -> (), target = "sm_90a", plan = #coro_plan.megakernel<workgroupSize = 64>>,
               #coro_plan.host_kernel<name = "k", functionType = () -> (), target = "spirv", workgroupSize = [8, 1, 1]>]
} {
}
