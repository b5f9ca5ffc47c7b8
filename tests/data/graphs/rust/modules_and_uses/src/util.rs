pub fn sum(items: &[u32]) -> u32 {
    items.iter().sum()
}

pub fn scale(value: u32, by: u32) -> u32 {
    value * by
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums() {
        assert_eq!(sum(&[1, 2]), 3);
        let doubled = scale(2, 2);
        let _ = doubled;
    }
}
