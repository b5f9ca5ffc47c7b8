mod report;

use geo_core::{origin, Point};

fn main() {
    let p: Point = origin();
    report::print(&p);
    let q = Point { x: 1.0, y: 2.0 };
    q.norm();
}
