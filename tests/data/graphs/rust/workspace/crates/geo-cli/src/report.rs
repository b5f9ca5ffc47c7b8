use geo_core::point;

pub fn print(p: &point::Point) {
    let n = p.norm();
    let _ = n;
    helper();
}

fn helper() {}
