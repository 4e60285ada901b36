// RUN: coro-opt %s --split-input-file --coro-profile-lanes | FileCheck %s

// An unsplit coroutine is the mega-kernel: one function, whose body gets the
// sites. The profile buffer comes last; the header takes words 0-1 and the
// function's counters 2-5 (LaneProfileABI.h), so site N starts at word
// 6 + 6 N: its visits, divergent visits and active lanes, 64 bits each.
// Once per subgroup, the lowest active lane writes the subgroup size
// (word 0) and adds to the counters, carrying into the high words.
// CHECK-LABEL: coro.func @branches(
// CHECK-SAME:      %[[OUT:.*]]: memref<?xi32>, %[[N:.*]]: index, %[[P:.*]]: memref<?xi32>)
// CHECK-SAME:      coro.lane_profile = #coro.lane_profile<argument = 2, functions = ["mega-kernel"], sites = [
// CHECK-SAME:        #coro.profile_site<kind = "entry", function = 0, location = #loc{{[0-9]*}}>,
// CHECK-SAME:        #coro.profile_site<kind = "scf.if", function = 0, location = #loc{{[0-9]*}}>,
// CHECK-SAME:        #coro.profile_site<kind = "scf.for", function = 0, location = #loc{{[0-9]*}}>,
// CHECK-SAME:        #coro.profile_site<kind = "scf.index_switch", function = 0, location = #loc{{[0-9]*}}>,
// CHECK-SAME:        #coro.profile_site<kind = "scf.while", function = 0, location = #loc{{[0-9]*}}>]>
// The function's entry: its active lanes, no selector.
// CHECK:         %[[ACTIVE:.*]] = gpu.subgroup_reduce add %{{.*}} : (i32) -> i32
// CHECK-NEXT:    %[[LANE:.*]] = gpu.lane_id
// CHECK-NEXT:    %[[LANE32:.*]] = arith.index_castui %[[LANE]] : index to i32
// CHECK-NEXT:    %[[FIRST:.*]] = gpu.subgroup_reduce minui %[[LANE32]] : (i32) -> i32
// CHECK-NEXT:    %[[LEADER:.*]] = arith.cmpi eq, %[[LANE32]], %[[FIRST]] : i32
// CHECK-NEXT:    scf.if %[[LEADER]] {
// CHECK-NEXT:      %[[SIZE:.*]] = gpu.subgroup_size : index
// CHECK-NEXT:      %[[SIZE32:.*]] = arith.index_castui %[[SIZE]] : index to i32
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      memref.store %[[SIZE32]], %[[P]][%[[C0]]] : memref<?xi32>
// CHECK:           %[[W6:.*]] = arith.constant 6 : index
// CHECK-NEXT:      %[[OLD:.*]] = memref.atomic_rmw addi %{{.*}}, %[[P]][%[[W6]]] : (i32, memref<?xi32>) -> i32
// CHECK-NEXT:      %[[SUM:.*]] = arith.addi %[[OLD]], %{{.*}} : i32
// CHECK-NEXT:      %[[CARRY:.*]] = arith.cmpi ult, %[[SUM]], %[[OLD]] : i32
// CHECK-NEXT:      scf.if %[[CARRY]] {
// CHECK:             %[[W7:.*]] = arith.addi %[[W6]], %{{.*}} : index
// CHECK:             memref.atomic_rmw addi %{{.*}}, %[[P]][%[[W7]]]
// CHECK:           %[[W10:.*]] = arith.constant 10 : index
// CHECK-NEXT:      memref.atomic_rmw addi %[[ACTIVE]], %[[P]][%[[W10]]]
// CHECK-NOT:       arith.constant 8 : index
// CHECK:         }
// The branch: the lanes' conditions, reduced to their minimum and maximum,
// differ where the subgroup diverges; site 1 counts that at word 14.
// CHECK:         %[[ODD:.*]] = arith.cmpi eq
// CHECK:         %[[TAKEN:.*]] = arith.extui %[[ODD]] : i1 to i32
// CHECK:         gpu.subgroup_reduce add
// CHECK-NEXT:    %[[LOW:.*]] = gpu.subgroup_reduce minui %[[TAKEN]] : (i32) -> i32
// CHECK-NEXT:    %[[HIGH:.*]] = gpu.subgroup_reduce maxui %[[TAKEN]] : (i32) -> i32
// CHECK-NEXT:    %[[NE:.*]] = arith.cmpi ne, %[[LOW]], %[[HIGH]] : i32
// CHECK-NEXT:    %[[DIVERGED:.*]] = arith.extui %[[NE]] : i1 to i32
// CHECK:         arith.constant 12 : index
// CHECK:         arith.constant 16 : index
// CHECK:         %[[W14:.*]] = arith.constant 14 : index
// CHECK-NEXT:    memref.atomic_rmw addi %[[DIVERGED]], %[[P]][%[[W14]]]
// CHECK:         scf.if %[[ODD]] {
// A for loop's test, whether the lane runs an iteration: before the first
// (site 2: word 18), then after each, added to the same site.
// CHECK:         %[[ENTERS:.*]] = arith.cmpi slt, %[[LB:.*]], %[[N]] : index
// CHECK-NEXT:    arith.extui %[[ENTERS]] : i1 to i32
// CHECK:         arith.constant 18 : index
// CHECK:         scf.for %[[I:.*]] = %[[LB]] to %[[N]] step %[[STEP:.*]] {
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[I]], %[[STEP]] : index
// CHECK-NEXT:      %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : index
// CHECK-NEXT:      arith.extui %[[MORE]] : i1 to i32
// CHECK:           arith.constant 18 : index
// CHECK-NOT:       arith.constant 24 : index
// CHECK:           memref.store %{{.*}}, %[[OUT]]
// CHECK-NEXT:    }
// A switch: the case each lane takes, its number or 1 for the default (the
// values of lanes that take the same case may differ).
// CHECK-NEXT:    %[[DEFAULT:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[IS0:.*]] = arith.cmpi eq, %{{.*}}, %[[ZERO]] : index
// CHECK-NEXT:    %[[FIRST_CASE:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[CASE:.*]] = arith.select %[[IS0]], %[[FIRST_CASE]], %[[DEFAULT]] : i32
// CHECK:         gpu.subgroup_reduce minui %[[CASE]]
// CHECK:         gpu.subgroup_reduce maxui %[[CASE]]
// CHECK:         arith.constant 24 : index
// CHECK:         scf.index_switch
// A while loop's header is its condition.
// CHECK:         scf.while
// CHECK:           %[[GOON:.*]] = arith.cmpi ult
// CHECK-NEXT:      %[[GOON32:.*]] = arith.extui %[[GOON]] : i1 to i32
// CHECK:           gpu.subgroup_reduce maxui %[[GOON32]]
// CHECK:           scf.condition(%[[GOON]])
// CHECK:         coro.return
coro.func @branches(%out: memref<?xi32>, %n: index) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = arith.remui %id, %c2 : index
  %odd = arith.cmpi eq, %r, %c1 : index
  scf.if %odd {
    %v = arith.index_cast %id : index to i32
    memref.store %v, %out[%id] : memref<?xi32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %out[%id] : memref<?xi32>
  }
  scf.index_switch %r
  case 0 {
    %v = arith.constant 7 : i32
    memref.store %v, %out[%id] : memref<?xi32>
    scf.yield
  }
  default {
  }
  %w = scf.while (%k = %c0) : (index) -> index {
    %more = arith.cmpi ult, %k, %r : index
    scf.condition(%more) %k : index
  } do {
  ^bb0(%k: index):
    %next = arith.addi %k, %c1 : index
    scf.yield %next : index
  }
  coro.return
}

// -----

// A split coroutine: its subroutines are the functions, in token order, and
// take the buffer after the coroutine's arguments (the frame comes first);
// the coroutine keeps the signature they share. Function N's counters are
// words 2 + 4 N: the frame bytes its lanes loaded and stored, 4 per word a
// field touches (an index field: two), summed per lane in a private array
// and per subgroup when the function returns. Sites follow at 2 + 4 x 2.
// CHECK-LABEL: coro.func @shade(
// CHECK-SAME:      %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xi32>)
// CHECK-SAME:      coro.lane_profile = #coro.lane_profile<argument = 1, functions = ["entry", "hit"], sites = [
// CHECK-SAME:        #coro.profile_site<kind = "entry", function = 0, location = #loc{{[0-9]*}}>,
// CHECK-SAME:        #coro.profile_site<kind = "entry", function = 1, location = #loc{{[0-9]*}}>]>
// CHECK-NOT:     gpu.subgroup_reduce
// CHECK:         coro.return
// CHECK-LABEL: func.func @shade__entry(
// CHECK-SAME:      %[[FRAME:.*]]: !coro.frame, %{{.*}}: memref<?xf32>, %[[P:.*]]: memref<?xi32>)
// CHECK:         %[[BYTES:.*]] = memref.alloca() : memref<2xi32>
// Site 0 at word 10.
// CHECK:         arith.constant 10 : index
// CHECK:         coro.frame.store %{{.*}}, %[[FRAME]][0] : f32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    %[[SO_FAR:.*]] = memref.load %[[BYTES]][%[[ONE]]] : memref<2xi32>
// CHECK-NEXT:    %[[ADDED:.*]] = arith.addi %[[SO_FAR]], %[[FOUR]] : i32
// CHECK-NEXT:    memref.store %[[ADDED]], %[[BYTES]][%[[ONE]]] : memref<2xi32>
// CHECK:         coro.frame.set_target
// CHECK:         %[[LOADED:.*]] = memref.load %[[BYTES]][%{{.*}}] : memref<2xi32>
// CHECK-NEXT:    gpu.subgroup_reduce add %[[LOADED]] : (i32) -> i32
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    %[[STORED:.*]] = memref.load %[[BYTES]][%{{.*}}] : memref<2xi32>
// CHECK-NEXT:    %[[TOTAL:.*]] = gpu.subgroup_reduce add %[[STORED]] : (i32) -> i32
// CHECK:         scf.if
// CHECK:           arith.constant 2 : index
// CHECK:           %[[W4:.*]] = arith.constant 4 : index
// CHECK-NEXT:      memref.atomic_rmw addi %[[TOTAL]], %[[P]][%[[W4]]]
// CHECK:         return
// CHECK-LABEL: func.func @shade__hit(
// CHECK-SAME:      %[[FRAME:.*]]: !coro.frame, %{{.*}}: memref<?xf32>, %[[P:.*]]: memref<?xi32>)
// Site 1 at word 16, function 1's counters at 6 and 8.
// CHECK:         arith.constant 16 : index
// CHECK:         coro.frame.load %[[FRAME]][0] : f32
// CHECK:         arith.constant 4 : i32
// CHECK:         coro.frame.load %[[FRAME]][1] : index
// CHECK:         arith.constant 8 : i32
// CHECK:         arith.constant 6 : index
// CHECK:         arith.constant 8 : index
// CHECK:         return
coro.func @shade(%out: memref<?xf32>) {
  coro.suspend "hit"
  coro.return
}
func.func @shade__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %x = arith.constant 1.5 : f32
  coro.frame.store %x, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @shade__hit(%frame: !coro.frame, %out: memref<?xf32>) {
  %x = coro.frame.load %frame[0] : f32
  %i = coro.frame.load %frame[1] : index
  memref.store %x, %out[%i] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @shade subroutines [@shade__entry, @shade__hit] names ["entry", "hit"]
    fields [#coro.field<"x" : f32 at 2>, #coro.field<"i" : index at 3>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]

// The mega-kernel runs the coroutine's own body even where it is split
// (coro-resolve-handles splits a coroutine that other code drives): with
// `mega-kernel`, that body is instrumented, and the subroutines only take
// the buffer.
// RUN: coro-opt %s --split-input-file --coro-profile-lanes='mega-kernel=true' | FileCheck %s --check-prefix=MEGAK
// MEGAK-LABEL: coro.func @shade(
// MEGAK-SAME:      coro.lane_profile = #coro.lane_profile<argument = 1, functions = ["mega-kernel"]
// MEGAK:         gpu.subgroup_reduce
// MEGAK:         coro.suspend
// MEGAK-LABEL: func.func @shade__entry(
// MEGAK-SAME:      %{{.*}}: memref<?xi32>)
// MEGAK-NOT:     gpu.subgroup_reduce
// MEGAK:         return

// -----

// The module keeps every profile by coroutine name; with `coroutines`, only
// those named are instrumented.
// RUN: coro-opt %s --split-input-file --coro-profile-lanes='coroutines=b' | FileCheck %s --check-prefix=ONLY
// ONLY-LABEL: module attributes {coro.lane_profile = {b = #coro.lane_profile<argument = 0, functions = ["mega-kernel"]
// ONLY: coro.func @a() {
// ONLY: coro.func @b(%{{.*}}: memref<?xi32>) attributes {coro.lane_profile
// CHECK-LABEL: module attributes {coro.lane_profile = {a = #coro.lane_profile<argument = 0, {{.*}}>, b = #coro.lane_profile<argument = 0,
coro.func @a() {
  coro.return
}
coro.func @b() {
  coro.return
}
