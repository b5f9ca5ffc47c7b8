// Field chains through nested structs, and `for` loop variables over collections.
pub struct Path;

impl Path {
    pub fn path(&self) -> u32 {
        1
    }
}

pub struct Colors {
    pub path: Path,
}

pub struct Config {
    pub colors: Colors,
}

pub struct Summary {
    pub config: Config,
}

pub struct Item;

impl Item {
    pub fn weight(&self) -> u32 {
        2
    }
}

pub struct Report {
    summary: Summary,
    items: Vec<Item>,
    names: Vec<String>,
    paths: Vec<Path>,
}

impl Report {
    fn items(&self) -> &[Item] {
        &self.items
    }

    pub fn chain(&self) -> u32 {
        self.summary.config.colors.path.path()
    }

    pub fn by_reference(&self) {
        for item in &self.items {
            item.weight();
        }
    }

    pub fn by_iter(&self) {
        for item in self.items.iter() {
            item.weight();
        }
    }

    pub fn by_method(&self) {
        for each in self.items() {
            each.weight();
        }
    }

    pub fn by_slice(extra: &[Item]) {
        for e in extra {
            e.weight();
        }
    }

    pub fn by_array(fixed: [Path; 2]) {
        for f in fixed.into_iter() {
            f.path();
        }
    }

    // A String element, a name bound to two element types, an enumerate() pair: not evident.
    pub fn unknown(&self) {
        for name in &self.names {
            name.weight();
        }
        for x in &self.items {
            x.path();
        }
        for x in &self.paths {
            x.path();
        }
        for (i, pair) in self.items.iter().enumerate() {
            pair.weight();
        }
    }
}
