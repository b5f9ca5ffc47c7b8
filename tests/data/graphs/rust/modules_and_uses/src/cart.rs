use crate::util::{sum, scale as times};
use super::net::*;

pub struct Cart {
    items: Vec<u32>,
}

impl Cart {
    pub fn new() -> Self {
        Cart { items: Vec::new() }
    }

    pub fn total(&self) -> u32 {
        times(sum(&self.items), 1)
    }

    pub fn submit(&self) {
        send(self.total());
        self.log();
    }

    fn log(&self) {}
}
