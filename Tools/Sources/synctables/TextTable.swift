/// Rows of text in aligned columns under a header row, as `queue` and `errors list` print them.
///
/// The last column is not padded, a last column that is empty in every row is left out, and no line ends
/// with spaces.
struct TextTable {
    let header: [String]
    let rows: [[String]]

    var text: String {
        var columns = header.count
        while columns > 1, rows.allSatisfy({ $0[columns - 1].isEmpty }) { columns -= 1 }
        let widths = (0..<columns).map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        return ([header] + rows).map { row in
            let cells = (0..<columns).map { column in
                column == columns - 1
                    ? row[column] : row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            var line = cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
