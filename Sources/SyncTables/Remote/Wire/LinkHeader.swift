import Foundation

/// Reads the `Link` header of a query response.
package enum LinkHeader {
    /// The URL of the `rel=next` link, resolved against the request URL, or `nil`.
    ///
    /// Accepts the form the Azure servers write, `https://host/tables/todo?$skip=50; rel=next` (no angle
    /// brackets), and RFC 8288's `<https://…>; rel="next"`, including several comma-separated links.
    ///
    /// ```swift
    /// LinkHeader.nextURL(in: "http://h/tables/t?$skip=2; rel=next", relativeTo: requestURL)
    /// ```
    package static func nextURL(in header: String, relativeTo base: URL) -> URL? {
        for link in links(in: header) where link.relations.contains("next") {
            if let url = URL(string: link.target, relativeTo: base)?.absoluteURL { return url }
        }
        return nil
    }

    private struct Link {
        var target: String
        var relations: [String]
    }

    private static func links(in header: String) -> [Link] {
        let text = header.trimmingSpaces()
        guard text.hasPrefix("<") else {
            // Unbracketed: the URI itself may hold commas, so treat the whole value as one link whose
            // parameters start at the first ";" followed by a parameter.
            guard let split = text.range(of: ";") else { return [] }
            let target = String(text[..<split.lowerBound]).trimmingSpaces()
            return [Link(target: target, relations: relations(in: text[split.upperBound...]))]
        }
        var result: [Link] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let target = String(rest[rest.index(after: open)..<close])
            let afterTarget = rest[rest.index(after: close)...]
            let nextOpen = afterTarget.range(of: ",")?.lowerBound ?? afterTarget.endIndex
            let parameters = afterTarget[..<nextOpen]
            result.append(Link(target: target, relations: relations(in: parameters)))
            rest = afterTarget[nextOpen...]
        }
        return result
    }

    /// The values of `rel` parameters (space-separated lists allowed), lower-cased.
    private static func relations(in parameters: Substring) -> [String] {
        var relations: [String] = []
        for parameter in parameters.split(separator: ";") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, String(parts[0]).trimmingSpaces().lowercased() == "rel" else { continue }
            let value = String(parts[1]).trimmingSpaces().trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            relations += value.lowercased().split(separator: " ").map(String.init)
        }
        return relations
    }
}
