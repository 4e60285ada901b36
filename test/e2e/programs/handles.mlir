// The paper's low-level interfaces (Sec. 4.1.3-4.1.4, Listings 3 to 5):
// coroutines that drive the frames of @steps themselves.
//
// @steps: instance i suspends "even" or "odd" by its parity, then i % 5 + 1
// times in a loop ("more"), promises the loop count so far as "n", and
// writes out[i] = (i * scale) + 10 * n at the end.
//
// @listing4 (paper Listing 4): one thread per instance instantiates a frame
// of @steps, runs the entry, then resumes whatever the target token names
// until the coroutine returns; it records in info[3 i .. 3 i + 2] how many
// subroutines ran, the promise "n" and the frame's instance id. Its out
// buffer must equal what @steps writes under any scheduler.
//
// @by_tag: resumes by tag and by token value instead of the target token
// (paper Listing 3): after the entry it resumes at "even" or "odd" as the
// parity says, then [target] until done.
//
// @entry_half and @rest_half (a two-kernel split written by hand): the
// first runs @steps' entry and stores the frame into a buffer of frames
// (SoA, or AoS with their _aos versions); the second, launched after it,
// loads the frame and runs it to the end.
//
// Output (grid 37, --arg=2.0): out[i] = 2 i + 10 (i % 5 + 1) for every
// driver; @listing4: info[3 i] = i % 5 + 3 subroutines (the entry, "even" or
// "odd", i % 5 + 1 times "more"), info[3 i + 1] = i % 5 + 1, info[3 i + 2]
// = i; @by_tag: info[i] = the token after the entry (that of "even" or
// "odd").
coro.func @steps(%scale: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %parity = arith.remui %id, %c2 : index
  %even = arith.cmpi eq, %parity, %c0 : index
  scf.if %even {
    coro.suspend "even"
  } else {
    coro.suspend "odd"
  }
  %rounds = arith.remui %id, %c5 : index
  %trips = arith.addi %rounds, %c1 : index
  %n = scf.for %k = %c0 to %trips step %c1 iter_args(%acc = %i0) -> (i32) {
    %next = arith.addi %acc, %i1 : i32
    coro.promise "n", %next : i32
    coro.suspend "more"
    scf.yield %next : i32
  }
  %id32 = arith.index_cast %id : index to i32
  %f = arith.sitofp %id32 : i32 to f32
  %v = arith.mulf %f, %scale : f32
  %ten = arith.constant 10 : i32
  %bonus = arith.muli %n, %ten : i32
  %bf = arith.sitofp %bonus : i32 to f32
  %w = arith.addf %v, %bf : f32
  memref.store %w, %out[%id] : memref<?xf32>
  coro.return
}

coro.func @listing4(%scale: f32, %out: memref<?xf32>, %info: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %true = arith.constant true
  %h = coro.handle.create @steps[%id] : !coro.handle<@steps>
  coro.handle.resume %h(%scale, %out) : !coro.handle<@steps>, (f32, memref<?xf32>) -> ()
  %runs = scf.while (%count = %i1) : (i32) -> i32 {
    %done = coro.handle.done %h : !coro.handle<@steps>
    %more = arith.xori %done, %true : i1
    scf.condition(%more) %count : i32
  } do {
  ^bb0(%count: i32):
    coro.handle.resume %h(%scale, %out) : !coro.handle<@steps>, (f32, memref<?xf32>) -> ()
    %next = arith.addi %count, %i1 : i32
    scf.yield %next : i32
  }
  %n = coro.handle.promise %h["n"] : !coro.handle<@steps> -> i32
  %instance = coro.handle.id %h : !coro.handle<@steps>
  %instance32 = arith.index_cast %instance : index to i32
  %base = arith.muli %id, %c3 : index
  %at1 = arith.addi %base, %c1 : index
  %at2 = arith.addi %base, %c2 : index
  memref.store %runs, %info[%base] : memref<?xi32>
  memref.store %n, %info[%at1] : memref<?xi32>
  memref.store %instance32, %info[%at2] : memref<?xi32>
  coro.return
}

coro.func @by_tag(%scale: f32, %out: memref<?xf32>, %info: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %true = arith.constant true
  %h = coro.handle.create @steps[%id] : !coro.handle<@steps>
  coro.handle.resume %h at "entry"(%scale, %out) : !coro.handle<@steps>, (f32, memref<?xf32>) -> ()
  %first = coro.handle.target %h : !coro.handle<@steps>
  memref.store %first, %info[%id] : memref<?xi32>
  %parity = arith.remui %id, %c2 : index
  %even = arith.cmpi eq, %parity, %c0 : index
  scf.if %even {
    coro.handle.resume %h at "even"(%scale, %out) : !coro.handle<@steps>, (f32, memref<?xf32>) -> ()
  } else {
    coro.handle.resume %h at "odd"(%scale, %out) : !coro.handle<@steps>, (f32, memref<?xf32>) -> ()
  }
  scf.while : () -> () {
    %done = coro.handle.done %h : !coro.handle<@steps>
    %more = arith.xori %done, %true : i1
    scf.condition(%more)
  } do {
    %t = coro.handle.target %h : !coro.handle<@steps>
    coro.handle.resume %h[%t](%scale, %out) : !coro.handle<@steps>, (f32, memref<?xf32>) -> ()
    scf.yield
  }
  coro.return
}

coro.func @entry_half(%count: i32, %scale: f32, %out: memref<?xf32>, %frames: memref<?xi32>) {
  %id = coro.id : index
  %n = arith.index_cast %count : i32 to index
  %h = coro.handle.create @steps[%id] : !coro.handle<@steps>
  coro.handle.resume %h(%scale, %out) : !coro.handle<@steps>, (f32, memref<?xf32>) -> ()
  coro.handle.store %h, %frames[%id] of %n : !coro.handle<@steps>, memref<?xi32>
  coro.return
}

coro.func @rest_half(%count: i32, %scale: f32, %out: memref<?xf32>, %frames: memref<?xi32>) {
  %id = coro.id : index
  %n = arith.index_cast %count : i32 to index
  %true = arith.constant true
  %h = coro.handle.load @steps %frames[%id] of %n : memref<?xi32> -> !coro.handle<@steps>
  scf.while : () -> () {
    %done = coro.handle.done %h : !coro.handle<@steps>
    %more = arith.xori %done, %true : i1
    scf.condition(%more)
  } do {
    coro.handle.resume %h(%scale, %out) : !coro.handle<@steps>, (f32, memref<?xf32>) -> ()
    scf.yield
  }
  coro.return
}

coro.func @entry_half_aos(%count: i32, %scale: f32, %out: memref<?xf32>, %frames: memref<?xi32>) {
  %id = coro.id : index
  %n = arith.index_cast %count : i32 to index
  %h = coro.handle.create @steps[%id] : !coro.handle<@steps>
  coro.handle.resume %h(%scale, %out) : !coro.handle<@steps>, (f32, memref<?xf32>) -> ()
  coro.handle.store %h, %frames[%id] of %n aos : !coro.handle<@steps>, memref<?xi32>
  coro.return
}

coro.func @rest_half_aos(%count: i32, %scale: f32, %out: memref<?xf32>, %frames: memref<?xi32>) {
  %id = coro.id : index
  %n = arith.index_cast %count : i32 to index
  %true = arith.constant true
  %h = coro.handle.load @steps %frames[%id] of %n aos : memref<?xi32> -> !coro.handle<@steps>
  scf.while : () -> () {
    %done = coro.handle.done %h : !coro.handle<@steps>
    %more = arith.xori %done, %true : i1
    scf.condition(%more)
  } do {
    coro.handle.resume %h(%scale, %out) : !coro.handle<@steps>, (f32, memref<?xf32>) -> ()
    scf.yield
  }
  coro.return
}

// @reads_later loads in[i], suspends, and writes the value to out[i];
// @rewrite_between resumes it, writes 999 to in[i], and resumes it again: the
// value crossed the suspension in the frame, so out[i] = the first in[i]
// (coro-split does not redo loads after suspensions in coroutines that
// handles drive: their driver may write the buffer in between).
coro.func @reads_later(%in: memref<?xi32>, %out: memref<?xi32>) {
  %id = coro.id : index
  %v = memref.load %in[%id] : memref<?xi32>
  coro.suspend "later"
  memref.store %v, %out[%id] : memref<?xi32>
  coro.return
}

coro.func @rewrite_between(%in: memref<?xi32>, %out: memref<?xi32>) {
  %id = coro.id : index
  %new = arith.constant 999 : i32
  %h = coro.handle.create @reads_later[%id] : !coro.handle<@reads_later>
  coro.handle.resume %h(%in, %out) : !coro.handle<@reads_later>, (memref<?xi32>, memref<?xi32>) -> ()
  memref.store %new, %in[%id] : memref<?xi32>
  coro.handle.resume %h(%in, %out) : !coro.handle<@reads_later>, (memref<?xi32>, memref<?xi32>) -> ()
  coro.return
}
