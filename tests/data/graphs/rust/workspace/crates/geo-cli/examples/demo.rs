use geo_core::Point;

fn main() {
    let p = Point::new(1.0, 1.0);
    println!("{}", p.norm());
}
