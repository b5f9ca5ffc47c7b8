use crate::{Named, Speaker};

pub struct Dog {
    name: String,
}

impl Dog {
    pub fn new(name: &str) -> Self {
        Dog { name: name.to_string() }
    }
}

impl Named for Dog {
    fn name(&self) -> String {
        self.name.clone()
    }
}

impl Speaker for Dog {
    fn sound(&self) -> String {
        String::from("woof")
    }
}

impl<T: Named> Named for Vec<T> {
    fn name(&self) -> String {
        String::new()
    }
}
