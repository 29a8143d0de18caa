//! Plain-text boards for terminals.

/// Cells right-aligned in columns of equal width, separated by one space.
pub fn grid(rows: &[Vec<String>]) -> String {
    let width = rows
        .iter()
        .flat_map(|r| r.iter().map(|c| c.chars().count()))
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row.iter().map(|c| format!("{c:>width$}")).collect();
        out.push_str(cells.join(" ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn columns_are_aligned() {
        let rows = vec![
            vec!["1".to_string(), "10".to_string()],
            vec!["2".to_string(), "3".to_string()],
        ];
        assert_eq!(super::grid(&rows), " 1 10\n 2  3\n");
    }
}
