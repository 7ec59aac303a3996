#if canImport(Glibc)
import Glibc
#endif
import PickerPortalRules
import PickerSystem

/// `SaveFile` served by pickerd-portal itself when no other FileChooser backend is installed: a plain
/// prompt in the terminal window (the one pick would use). It shows the folder (`current_folder`, else
/// the folder of `current_file`, else `$HOME`) and asks for a name (`current_name` by default; a path
/// relative to the folder, `~/…` or absolute; a folder moves there), confirms an overwrite, and writes
/// the path to `answer` in the request's private folder. Ctrl-D or a closed window cancels.
enum SavePrompt {
    /// What the prompt leaves in the request's folder: the chosen path, and its shell's pid (so a
    /// `Close` can end it).
    static let files = ["answer", "pid"]

    /// `$1` the request's folder, `$2` the folder, `$3` the default name, `$4`–`$6` the title, folder and
    /// name as shown (control characters escaped). Prompts go to stderr: the wrapper discards stdout.
    static let script = #"""
        d=$1; folder=$2; name=$3; shown_folder=$5; shown_name=$6
        echo $$ >"$d/pid"
        printf '%s\n\n' "$4" >&2
        while :; do
          printf 'Folder: %s\nName [%s] (Enter saves, Ctrl-D cancels): ' "$shown_folder" "$shown_name" >&2
          IFS= read -r answer || exit 1
          [ -n "$answer" ] || answer=$name
          case $answer in
            "~/"*) path=$HOME/${answer#"~/"} ;;
            /*) path=$answer ;;
            *) path=$folder/$answer ;;
          esac
          if [ -d "$path" ]; then folder=${path%/}; shown_folder=$folder; continue; fi
          dir=${path%/*}
          if [ ! -d "${dir:-/}" ]; then printf 'There is no folder %s.\n\n' "$dir" >&2; continue; fi
          if [ -e "$path" ]; then
            printf '%s exists. Replace it? [y/N] ' "$path" >&2
            IFS= read -r yes || exit 1
            case $yes in y|Y|yes|Yes) ;; *) printf '\n' >&2; continue ;; esac
          fi
          printf '%s' "$path" >"$d/answer"
          exit 0
        done
        """#

    /// The command for the terminal: `sh -c script` with the request's values.
    static func command(directory: String, title: String, options: [String: DBusValue], home: String) -> [String] {
        let (folder, name) = place(options, home: home)
        let shownTitle = InertText.escaped(title.isEmpty ? "Save file" : title)
        return ["sh", "-c", script, "pickerd-portal-save", directory, folder, name, shownTitle,
                InertText.escaped(folder), InertText.escaped(name)]
    }

    /// The folder and default name: `current_folder` / `current_name`, else `current_file`'s parts, else
    /// `$HOME` and "Untitled". A name with a `/` or a control character is not used as given.
    static func place(_ options: [String: DBusValue], home: String) -> (folder: String, name: String) {
        func path(_ key: String) -> String? {
            guard case .bytes(let bytes)? = options[key] else { return nil }
            let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            return text.hasPrefix("/") ? text : nil
        }
        let file = path("current_file")
        var folder = path("current_folder") ?? file.map { PortalFiles.folder(of: $0) } ?? home
        if folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        var name = "Untitled"
        if case .string(let given)? = options["current_name"] { name = given } else if let file { name = PortalFiles.name(of: file) }
        if name.isEmpty || name.contains("/") || name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            name = "Untitled"
        }
        return (folder, name)
    }

    /// The path the prompt chose, once it ended with status 0.
    static func answer(in directory: String) -> String? {
        guard let text = try? SmallText.read(directory + "/answer"), text.hasPrefix("/") else { return nil }
        return text
    }

    /// The prompt's shell, to end on `Close`.
    static func pid(in directory: String) -> pid_t? {
        (try? SmallText.read(directory + "/pid")).flatMap { pid_t($0.prefix { $0.isNumber }) }.flatMap { $0 > 1 ? $0 : nil }
    }
}
