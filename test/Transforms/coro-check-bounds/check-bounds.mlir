// RUN: coro-opt %s --split-input-file --coro-check-bounds | FileCheck %s
// RUN: coro-opt %s --split-input-file --coro-check-bounds='records=3' | FileCheck %s --check-prefix=RECORDS

// A load from a memref argument: its size is word 2 + 0 of the violation
// buffer, appended as the last argument. The load reads element 0 when out
// of bounds and gives 0 then, without a branch; the violation is noted in
// the private state (count, first site, dimension, index, size) with
// selects. A store runs only in bounds. At a suspension point or return,
// what was noted goes to the violation buffer: the count (word 0), a record
// number (word 1) and, while there is room, a record of 8 words after the
// header (2 + 2 arguments = 4 words).
// CHECK-LABEL: coro.func @load_argument(
// CHECK-SAME:      %[[IN:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>, %[[V:.*]]: memref<?xi32>)
// CHECK-SAME:      coro.bounds_check = #coro.bounds_check<argument = 2, records = 16, resumePoints = ["entry"], sites = [
// CHECK-SAME:        #coro.bounds_site<op = "memref.load", memref = "argument 0 (memref<?xf32>)", location = {{.*}}>,
// CHECK-SAME:        #coro.bounds_site<op = "memref.store", memref = "argument 1 (memref<?xf32>)", location = {{.*}}>]>
// CHECK:         %[[STATE:.*]] = memref.alloca() : memref<7xi32>
// CHECK:         %[[ID:.*]] = coro.id : index
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[WORD:.*]] = memref.load %[[V]][%[[C2]]] : memref<?xi32>
// CHECK:         %[[SIZE:.*]] = arith.index_castui %[[WORD]] : i32 to index
// CHECK:         %[[OK:.*]] = arith.cmpi ult, %[[ID]], %[[SIZE]] : index
// CHECK:         %[[OUTSIDE:.*]] = arith.xori %[[OK]], %true : i1
// CHECK:         %[[PENDING:.*]] = memref.load %[[STATE]][%{{.*}}] : memref<7xi32>
// CHECK:         %[[NONE:.*]] = arith.cmpi eq, %[[PENDING]], %{{.*}} : i32
// CHECK:         %[[FIRST:.*]] = arith.andi %[[OUTSIDE]], %[[NONE]] : i1
// The index goes in two i32 words without an i64, which would make the
// kernel need 64-bit integers: its low bits, and two arithmetic shifts by 16
// for the high ones (the sign where `index` is 32 bits wide).
// CHECK-NOT:     i64
// CHECK:         arith.index_castui %[[ID]] : index to i32
// CHECK:         %[[HALF:.*]] = arith.shrsi %[[ID]], %[[C16:.*]] : index
// CHECK:         %[[HIGH:.*]] = arith.shrsi %[[HALF]], %[[C16]] : index
// CHECK:         arith.index_castui %[[HIGH]] : index to i32
// CHECK-NOT:     i64
// CHECK-COUNT-5: arith.select %[[FIRST]], %{{.*}}, %{{.*}} : i32
// CHECK:         %[[ONE:.*]] = arith.extui %[[OUTSIDE]] : i1 to i32
// CHECK:         arith.addi %[[PENDING]], %[[ONE]] : i32
// CHECK:         %[[SAFE:.*]] = arith.select %[[OK]], %[[ID]], %{{.*}} : index
// CHECK:         %[[L:.*]] = memref.load %[[IN]][%[[SAFE]]] : memref<?xf32>
// CHECK:         %[[X:.*]] = arith.select %[[OK]], %[[L]], %{{.*}} : f32
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      memref.store %[[X]], %[[OUT]][%[[ID]]] : memref<?xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:    }
// CHECK:         %[[NOTED:.*]] = memref.load %[[STATE]][%{{.*}}] : memref<7xi32>
// CHECK:         %[[ANY:.*]] = arith.cmpi ne, %[[NOTED]], %{{.*}} : i32
// CHECK:         scf.if %[[ANY]] {
// CHECK:           memref.atomic_rmw addi %[[NOTED]], %[[V]][%{{.*}}] : (i32, memref<?xi32>) -> i32
// CHECK:           %[[NUMBER:.*]] = memref.atomic_rmw addi %{{.*}}, %[[V]][%{{.*}}] : (i32, memref<?xi32>) -> i32
// CHECK:           %[[ROOM:.*]] = arith.cmpi ult, %[[NUMBER]], %c16_i32 : i32
// CHECK:           scf.if %[[ROOM]] {
// CHECK:             %[[C4:.*]] = arith.constant 4 : index
// CHECK:             arith.addi %[[C4]], %{{.*}} : index
// CHECK-COUNT-8:     memref.store %{{.*}}, %[[V]][%{{.*}}] : memref<?xi32>
// CHECK:           }
// CHECK:         }
// CHECK-NEXT:    coro.return
// RECORDS-LABEL: coro.func @load_argument(
// RECORDS-SAME:    records = 3
// RECORDS:         arith.cmpi ult, %{{.*}}, %c3_i32 : i32
coro.func @load_argument(%in: memref<?xf32>, %out: memref<?xf32>) {
  %id = coro.id : index
  %x = memref.load %in[%id] : memref<?xf32>
  memref.store %x, %out[%id] : memref<?xf32>
  coro.return
}

// -----

// Static shapes need no size from the host; of several dimensions the
// first one out of bounds is recorded. The resume point (state word 0) is 0
// at the start and k after the k-th suspension point, where what was noted
// is reported first.
// CHECK-LABEL: coro.func @local_array(
// CHECK-SAME:      %{{.*}}: memref<4xi32>, %[[V:.*]]: memref<?xi32>)
// CHECK-SAME:      resumePoints = ["entry", "first", "#2 (anonymous)"]
// CHECK-SAME:      memref = "local array (memref<2x3xi32>)"
// CHECK:         %[[STATE:.*]] = memref.alloca() : memref<7xi32>
// CHECK:         scf.if
// CHECK:         coro.suspend "first"
// CHECK:         %[[C1:.*]] = arith.constant 1 : i32
// CHECK:         memref.store %[[C1]], %[[STATE]][%{{.*}}] : memref<7xi32>
// CHECK:         scf.if
// CHECK:         coro.suspend{{$}}
// CHECK:         %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         memref.store %[[C2]], %[[STATE]][%{{.*}}] : memref<7xi32>
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[OK1:.*]] = arith.cmpi ult, %[[J:.*]], %[[C3]] : index
// CHECK:         %[[C2I:.*]] = arith.constant 2 : index
// CHECK:         %[[OK0:.*]] = arith.cmpi ult, %[[I:.*]], %[[C2I]] : index
// CHECK:         %[[OK:.*]] = arith.andi %[[OK0]], %[[OK1]] : i1
// CHECK:         arith.select %[[OK0]], %{{.*}}, %{{.*}} : index
// CHECK:         memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x3xi32>
// CHECK:         scf.if %{{.*}} -> (i32) {
// CHECK-NEXT:      memref.atomic_rmw addi %{{.*}}, %{{.*}}[%{{.*}}] : (i32, memref<4xi32>) -> i32
coro.func @local_array(%out: memref<4xi32>) {
  %id = coro.id : index
  %a = memref.alloca() : memref<2x3xi32>
  %c1 = arith.constant 1 : index
  coro.suspend "first"
  coro.suspend
  %v = memref.load %a[%c1, %id] : memref<2x3xi32>
  %old = memref.atomic_rmw addi %v, %out[%id] : (i32, memref<4xi32>) -> i32
  coro.return
}

// -----

// Instrumented coroutines are left alone, so that running the pass twice
// adds one violation buffer.
// CHECK-LABEL: coro.func @twice(
// CHECK-SAME:      %{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>) attributes
// CHECK-NOT:     scf.if
// CHECK:         coro.return
coro.func @twice(%out: memref<?xi32>, %violations: memref<?xi32>) attributes {coro.bounds_check = #coro.bounds_check<argument = 1, records = 16, resumePoints = ["entry"], sites = []>} {
  %id = coro.id : index
  %c = arith.constant 1 : i32
  memref.store %c, %out[%id] : memref<?xi32>
  coro.return
}

// -----

// With `coroutines`, the others are left alone.
// RUN: coro-opt %s --split-input-file --coro-check-bounds='coroutines=chosen' | FileCheck %s --check-prefix=CHOSEN
// CHOSEN-LABEL: coro.func @chosen(
// CHOSEN-SAME:      %{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>) attributes {coro.bounds_check
// CHOSEN-LABEL: coro.func @other(
// CHOSEN-SAME:      %{{.*}}: memref<?xi32>) {
coro.func @chosen(%out: memref<?xi32>) {
  %id = coro.id : index
  %c = arith.constant 1 : i32
  memref.store %c, %out[%id] : memref<?xi32>
  coro.return
}
coro.func @other(%out: memref<?xi32>) {
  %id = coro.id : index
  %c = arith.constant 1 : i32
  memref.store %c, %out[%id] : memref<?xi32>
  coro.return
}

// -----

// A vector load of a memref of scalars is checked element by element: it
// becomes one load per element, each checked as above (a vector store
// likewise).
// CHECK-LABEL: coro.func @vector_load(
// CHECK-SAME:      %[[IN:[^:]*]]: memref<?xf32>, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: index, %{{[^:]*}}: memref<?xi32>
// CHECK-SAME:      sites = [#coro.bounds_site<op = "memref.load", memref = "argument 0 (memref<?xf32>)", {{[^>]*}}>, #coro.bounds_site<op = "memref.load", memref = "argument 0 (memref<?xf32>)", {{[^>]*}}>, #coro.bounds_site<op = "memref.store", memref = "argument 1 (memref<?xf32>)", {{[^>]*}}>, #coro.bounds_site<op = "memref.store", memref = "argument 1 (memref<?xf32>)", {{[^>]*}}>]
// CHECK-NOT:     vector.load
// CHECK-COUNT-2: memref.load %[[IN]][
// CHECK:         vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK-NOT:     vector.store
// CHECK-COUNT-2: memref.store %{{.*}}, %{{.*}}[
// CHECK:         coro.return
coro.func @vector_load(%in: memref<?xf32>, %out: memref<?xf32>, %i: index) {
  %v = vector.load %in[%i] : memref<?xf32>, vector<2xf32>
  vector.store %v, %out[%i] : memref<?xf32>, vector<2xf32>
  coro.return
}
