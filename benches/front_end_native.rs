//! The cost of timing through nbench's own API: an empty body and a 5 ns
//! one. `front_end_criterion.rs` times the same through criterion's API
//! (nbench-criterion); the README compares the two.

#[path = "front_end/bodies.rs"]
mod bodies;

use nbench::{Registry, black_box};

fn benches(r: &mut Registry) {
    r.bench("front_end/empty", |b| b.iter(|| {}));
    r.bench("front_end/5ns", |b| {
        b.iter(|| bodies::five_ns(black_box(7)))
    });
}

nbench::main!(benches);
