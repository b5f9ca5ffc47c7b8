/// A circle.
#[derive(Debug, Clone, Copy)]
pub struct Circle {
    radius: f64,
}

impl Circle {
    #[allow(clippy::new_without_default)] // a radius is needed
    pub fn new(radius: f64) -> Self {
        Circle { radius }
    }

    pub fn area(&self) -> f64 {
        std::f64::consts::PI * self.radius * self.radius
    }
}
