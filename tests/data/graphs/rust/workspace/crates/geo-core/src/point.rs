#[derive(Clone, Copy, Debug)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    pub fn norm(&self) -> f64 {
        Self::square(self.x) + Self::square(self.y)
    }

    fn square(v: f64) -> f64 {
        v * v
    }
}
