// RUN: coro-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{workgroupSize must be at least 1}}
module attributes {coro.megakernel = {f = #coro_plan.megakernel<workgroupSize = 0>}} {}

// -----

// expected-error @+1 {{tokens (3) must match the 2 subroutines}}
module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 3, categories = 3, frameWords = 4, layout = "soa", subroutines = ["entry", "next"]>}} {}

// -----

// expected-error @+2 {{layout must be "soa", "aos" or "aosoa", not "rows"}}
// expected-error @+1 {{failed to parse CoroPlan_WavefrontPlan parameter 'layout'}}
module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 2, frameWords = 4, layout = "rows", subroutines = ["entry", "next"]>}} {}

// -----

// expected-error @+1 {{categories (1) must be at least the tokens (2): one queue per subroutine and hint bucket}}
module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 1, frameWords = 4, layout = "soa", subroutines = ["entry", "next"]>}} {}

// -----

// expected-error @+2 {{design must be "queues" or "classify", not "sorted"}}
// expected-error @+1 {{failed to parse CoroPlan_WavefrontPlan parameter 'design'}}
module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 2, frameWords = 4, layout = "soa", subroutines = ["entry", "next"], design = "sorted">}} {}

// -----

// expected-error @+1 {{categories (5) must be a multiple of the tokens (2): each subroutine has as many hint buckets}}
module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 5, frameWords = 4, layout = "soa", subroutines = ["entry", "next"]>}} {}

// -----

// expected-error @+1 {{tailBelow is a percentage of the slots, got 101}}
module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 2, frameWords = 4, layout = "soa", subroutines = ["entry", "next"], tailBelow = 101>}} {}

// -----

// expected-error @+1 {{tailBelow needs the queue design}}
module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 2, frameWords = 4, layout = "soa", subroutines = ["entry", "next"], design = "classify", tailBelow = 10>}} {}

// -----

// expected-error @+1 {{subroutines must be strings (their tags)}}
module attributes {coro.state_machine = {f = #coro_plan.state_machine<workgroupSize = 64, frameWords = 3, stepsPerLaunch = 0, subroutines = [1, 2]>}} {}

// -----

// expected-error @+1 {{a split coroutine has at least one subroutine}}
module attributes {coro.state_machine = {f = #coro_plan.state_machine<workgroupSize = 64, frameWords = 3, stepsPerLaunch = 0, subroutines = []>}} {}

// -----

// expected-error @+1 {{sharedSlots (9) cannot exceed the batch (8)}}
module attributes {coro.persistent = {f = #coro_plan.persistent<workgroupSize = 64, tokens = 1, frameWords = 3, batch = 8, sharedSlots = 9, workgroupBytes = 0, layout = "soa", subroutines = ["entry"]>}} {}

// -----

// expected-error @+1 {{batch must be at least 1}}
module attributes {coro.persistent = {f = #coro_plan.persistent<workgroupSize = 64, tokens = 1, frameWords = 3, batch = 0, sharedSlots = 0, workgroupBytes = 0, layout = "soa", subroutines = ["entry"]>}} {}

// -----

// expected-error @+1 {{expected '>'}}
module attributes {coro.megakernel = {f = #coro_plan.megakernel<workgroupSize = 64, tokens = 2>}} {}

// -----

// "auto" is an option's design, never a plan's: the pass decided.
// expected-error @+2 {{design must be "queues" or "classify", not "auto"}}
// expected-error @+1 {{failed to parse CoroPlan_WavefrontPlan parameter 'design'}}
module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 2, frameWords = 4, layout = "soa", subroutines = ["entry", "next"], design = "auto">}} {}

// -----

// expected-error @+2 {{target must be "spirv" or an NVIDIA chip ("sm_90"), not "gfx90a"}}
// expected-error @+1 {{failed to parse CoroPlan_HostKernel parameter 'target'}}
module attributes {coro.host = [#coro_plan.host_kernel<name = "k", functionType = () -> (), target = "gfx90a", workgroupSize = [8, 1, 1]>]} {}

// -----

// expected-error @+2 {{target must be "spirv" or an NVIDIA chip ("sm_90"), not "sm_"}}
// expected-error @+1 {{failed to parse CoroPlan_HostCoroutine parameter 'target'}}
module attributes {coro.host = [#coro_plan.host_coroutine<name = "f", functionType = () -> (), target = "sm_", plan = #coro_plan.megakernel<workgroupSize = 64>>]} {}
