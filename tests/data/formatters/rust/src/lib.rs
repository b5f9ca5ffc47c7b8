//! Placement cases rustfmt must leave alone in a tagged view (tests/formatters).

mod shapes;

pub use shapes::Circle;

#[derive(Debug, Clone)] // cloned by the registry
pub struct Registry {
    circles: Vec<Circle>,
}

impl Registry {
    #[inline] // hot path
    pub fn total(&self) -> f64 {
        self.circles.iter().map(|c| c.area()).sum()
    }

    /// Adds a circle.
    #[must_use] // the caller keeps the registry
    pub fn with(mut self, circle: Circle) -> Self {
        self.circles.push(circle);
        self
    }
}

#[cfg(test)] // only under cargo test
mod tests {
    use super::*;

    #[test] // one circle
    fn total_of_one() {
        let registry = Registry { circles: vec![] }.with(Circle::new(1.0));
        assert!(registry.total() > 3.0);
    }
}
