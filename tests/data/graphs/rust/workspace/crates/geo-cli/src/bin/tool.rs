fn main() {
    let p = geo_core::Point::new(3.0, 4.0);
    p.norm();
    local();
}

fn local() {}
