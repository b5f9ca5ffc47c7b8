pub mod point;

pub use point::Point;

pub fn origin() -> Point {
    Point::new(0.0, 0.0)
}
