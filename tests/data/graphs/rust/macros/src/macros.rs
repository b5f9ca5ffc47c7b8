#[macro_export]
macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

pub fn helper() -> u32 {
    2
}
