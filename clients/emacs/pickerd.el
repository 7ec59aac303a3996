;;; pickerd.el --- Pick photos from pickerd, the photo-picker daemon  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: multimedia, files
;; URL: docs/PROTOCOL.md in the pickerd repository

;;; Commentary:

;; Speaks pickerd's protocol (docs/PROTOCOL.md, version 1) over its Unix socket: no
;; `pickerctl' processes, no external packages.
;;
;;   M-x pickerd-pick      album list | photo list | image; SPC picks, RET inserts the picks
;;                         at point in the buffer you came from (org, markdown or plain paths).
;;   (pickerd-albums)      => ("All Photos" "2024/Kyoto" ...)
;;   (pickerd-selection)   => absolute paths of the session's picks
;;   (pickerd-request 'status '((session . "emacs")))  => the reply's fields, an alist
;;   (pickerd-request-async 'getImage FIELDS (lambda (fields err) ...))  => id, at once
;;   (pickerd-request 'getImage '((session . "emacs") (format . symbols) (flags . 2)
;;                                (cells (cols . 80) (rows . 24))))  => terminal text in `data'
;;
;; The wire codec is one table, `pickerd-messages': each message is a list of (FIELD . KIND),
;; read and written by the same two functions.  Decoded payloads are alists keyed by the
;; field names of PROTOCOL.md.  Errors are signalled as `pickerd-error' with the daemon's
;; code, name and message plus a hint in Emacs terms.  Unknown error codes and event kinds
;; from a newer daemon are kept (as numbers, and as events of kind `unknown' with the raw
;; payload), never a decode failure.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defgroup pickerd nil
  "Pick photos from the pickerd daemon."
  :group 'multimedia
  :prefix "pickerd-")

(defcustom pickerd-socket nil
  "Socket of the daemon.
nil: $PICKER_SOCKET, else $XDG_RUNTIME_DIR/pickerd.sock, else
/tmp/pickerd-UID/pickerd.sock."
  :type '(choice (const :tag "Default" nil) file))

(defcustom pickerd-session "emacs"
  "Name of the session `pickerd-pick' and `pickerd-selection' use."
  :type 'string)

(defcustom pickerd-timeout 30
  "Seconds to wait for a reply."
  :type 'number)

(defcustom pickerd-insert-format 'auto
  "How `pickerd-pick' inserts the picks.
`auto': org-mode [[file:PATH]], markdown ![](PATH), else the path;
`org', `markdown', `path' force one; a function is called with the
list of absolute paths and the buffer, and returns the text to insert."
  :type '(choice (const auto) (const org) (const markdown) (const path) function))

(defcustom pickerd-max-selection 10
  "Most picks a session created by `pickerd-pick' allows."
  :type 'integer)

;;;; The wire codec

(defconst pickerd-protocol-version 1)
(defconst pickerd-max-request-frame (* 1024 1024))
(defconst pickerd-max-reply-frame (* 256 1024 1024))

(defconst pickerd--session-state
  '((name . string) (title . string) (width . u32) (height . u32) (max_selection . u16)
    (selection_count . u16) (album . string) (album_index . u32) (photo . string)
    (photo_index . u32) (photo_count . u32) (message . string)))
(defconst pickerd--library-info
  '((root . string) (album_count . u32) (photo_count . u32) (scan_state . u8)
    (scanned_at . i64) (skipped_count . u32)))
(defconst pickerd--scan-progress
  '((state . u8) (files_done . u32) (files_expected . u32) (elapsed_ms . u32)))
(defconst pickerd-formats
  '((1 . jpeg) (2 . png) (3 . webp) (6 . sixel) (7 . symbols))
  "Image formats by number.  `sixel' and `symbols' are output only: UTF-8
terminal text (PROTOCOL.md, \"Terminal formats\"); `symbols' needs cells.
A `format' field of a payload is a number or one of these names (or `jpg').")
(defconst pickerd-max-cells 1000 "Terminal columns and rows are each 1...1000.")

(defun pickerd-format-code (format)
  "FORMAT (a number, or a name in `pickerd-formats' or `jpg') as its number."
  (let ((name (if (stringp format) (intern (downcase format)) format)))
    (cond ((integerp name) name)
          ((null name) 0)
          ((eq name 'jpg) 1)
          ((car (rassq name pickerd-formats)))
          (t (error "pickerd: unknown image format %S (jpeg, png, webp; sixel or symbols for a terminal)"
                    format)))))

(defun pickerd-format-name (code)
  "The name of image format CODE, a symbol.
`format-N' for a code this client does not know."
  (or (alist-get code pickerd-formats) (intern (format "format-%d" code))))

(defconst pickerd--photo
  '((index . u32) (name . string) (path . string) (width . u32) (height . u32) (bytes . u64)
    (format . format) (date . i64) (date_source . u8)))
(defconst pickerd--image '((format . format) (width . u32) (height . u32) (data . blob)))
(defconst pickerd--cells
  `((cols . (range u16 1 ,pickerd-max-cells)) (rows . (range u16 1 ,pickerd-max-cells))))
(defconst pickerd--session-only '((session . string)))

(defconst pickerd-messages
  `((#x01 hello ((version . u16) (client_name . string)))
    (#x02 helloReply ((version . u16) (server_version . string) (max_request_frame . u32)
                      (max_reply_frame . u32) (input_formats . (list format))
                      (output_formats . (list format))))
    (#x03 error ((code . u16) (message . string)))
    (#x04 ping ())
    (#x05 pong ((server_version . string)))
    (#x06 libraryInfo ())
    (#x07 libraryInfoReply ,pickerd--library-info)
    (#x08 scanProgress ())
    (#x09 scanProgressReply ,pickerd--scan-progress)
    (#x10 sessionNew ((name . string) (width . u32) (height . u32) (max_selection . u16)
                      (title . string)))
    (#x11 sessionState ,pickerd--session-state)
    (#x12 sessionList ())
    (#x13 sessionListReply ((sessions . (list (struct ,pickerd--session-state)))))
    (#x14 sessionShow ,pickerd--session-only)
    (#x16 sessionResize ((session . string) (width . u32) (height . u32)))
    (#x18 sessionClose ,pickerd--session-only)
    (#x19 sessionClosed ,pickerd--session-only)
    (#x20 albums ())
    (#x21 albumsReply ((albums . (list (struct ((index . u32) (name . string)
                                                (photo_count . u32)))))))
    (#x22 selectAlbum ((session . string) (album . selector)))
    (#x24 photos ((session . string) (sort . u8)))
    (#x25 photosReply ((album . string) (photos . (list (struct ,pickerd--photo)))))
    (#x26 selectPhoto ((session . string) (photo . selector)))
    (#x28 stepPhoto ((session . string) (direction . u8)))
    (#x2a status ,pickerd--session-only)
    (#x2c setSort ((session . string) (sort . u8)))
    ;; Optional trailing flags: bit 0 asks for the reply's broken list.
    (#x2e photosPage ((session . string) (offset . u32) (limit . u32)
                      (trailing . (trailing 1 ((flags . u8))))))
    (#x2f photosPageReply ((album . string) (sort . u8) (total . u32) (offset . u32)
                           (photos . (list (struct ,pickerd--photo)))
                           ;; Only when asked: the rows known broken, with why.
                           (broken . (tail (list (struct ((index . u32) (reason . string))))))))
    ;; flags bit 1: the terminal cell size follows (symbols/sixel output).
    (#x30 getImage ((session . string) (format . format) (quality . u8) (flags . u8)
                    (cells . (if-flag 2 ,pickerd--cells))))
    (#x31 image ,pickerd--image)
    (#x40 toggle ((session . string) (photo . selector)))
    (#x42 selection ,pickerd--session-only)
    (#x43 selectionReply ((max_selection . u16)
                          (photos . (list (struct ((album . string) (name . string)
                                                   (width . u32) (height . u32)
                                                   (path . string)
                                                   (absolute_path . string)))))))
    (#x44 clearSelection ,pickerd--session-only)
    ;; flags bit 2: an output format follows; bit 1: the terminal cells (sixel/symbols pages).
    (#x46 thumbnails ((session . string) (cell_size . u32) (page . u32) (flags . u8)
                      (output . (if-flag 4 ((format . format))))
                      (cells . (if-flag 2 ,pickerd--cells))))
    (#x47 thumbnailsReply ((width . u32) (height . u32) (cell_size . u32) (spacing . u32)
                           (padding . u32) (columns . u32) (rows . u32) (page . u32)
                           (pages . u32)
                           (cells . (list (struct ((index . u32) (name . string) (x . u32)
                                                   (y . u32) (size . u32) (flags . u8)))))
                           (image . (optional ,pickerd--image))))
    ;; Optional trailing flags (+ cells on bit 1): sent only when cells follow.
    (#x48 preview ((session . string) (width . u32) (height . u32) (format . format)
                   (quality . u8)
                   (trailing . (trailing 2 ((flags . u8) (cells . (if-flag 2 ,pickerd--cells)))))))
    (#x50 subscribe ((session . string) (flags . u8)))
    (#x51 subscribed ((session . string) (flags . u8)))
    (#x52 cancel ((request_id . u32)))
    (#x53 cancelReply ((request_id . u32) (found . bool)))
    (#x80 sessionEvent ,(cons '(change . u8) pickerd--session-state))
    (#x81 libraryEvent ,pickerd--library-info)
    (#x82 libraryChangesEvent ((added . (list string)) (removed . (list string))
                               (changed . (list string))))
    (#x83 scanProgressEvent ,pickerd--scan-progress))
  "Every message of protocol version 1: (TYPE NAME FIELDS).
FIELDS is a list of (FIELD . KIND).  KIND is u8 u16 u32 u64 i64 bool
string blob selector format (a u8; encoded from a number or a name in
`pickerd-formats', decoded as the number), (list KIND), (struct FIELDS),
\(optional FIELDS) (a bool, then FIELDS when it is 1), (if-flag BIT
FIELDS) (FIELDS follow when the preceding `flags' field has BIT set),
\(trailing BIT FIELDS) (optional trailing FIELDS, kept in the message's
own alist: encoded only when its `flags' has BIT, decoded only when
bytes remain, else flags 0 and flagged groups nil), (tail KIND) (an
optional last field: decoded only when bytes remain, else nil; encoded
only when non-nil) or (range KIND LO HI)
\(an integer that decodes with `out_of_range' outside LO...HI).")

(defconst pickerd-request-types
  '(#x01 #x04 #x06 #x08 #x10 #x12 #x14 #x16 #x18 #x20 #x22 #x24 #x26 #x28 #x2a #x2c #x2e
	 #x30 #x40 #x42 #x44 #x46 #x48 #x50 #x52)
  "The message types a client sends.")

(defconst pickerd-error-names
  '((1 . malformed_frame) (2 . unsupported_version) (3 . frame_too_large)
    (4 . unknown_message_type) (5 . handshake_required) (6 . invalid_argument) (7 . too_busy)
    (8 . cancelled) (9 . permission_denied) (10 . no_such_session) (11 . no_such_album)
    (12 . no_such_photo) (13 . nothing_selected) (14 . session_exists) (15 . out_of_range)
    (16 . selection_full) (17 . invalid_name) (20 . corrupt_image) (21 . unsupported_image)
    (22 . image_too_large) (23 . io_error) (99 . internal))
  "The protocol's stable error codes.
A code not here is named `internal' (PROTOCOL.md).")

(defconst pickerd-session-changes
  '((1 . album) (2 . photo) (3 . selection) (4 . pane_size) (5 . closed) (6 . created)))

(defconst pickerd-hints
  '((selection_full . "unpick a photo with SPC in the photo list (M-x pickerd-pick),\
or M-x pickerd-clear-selection")
    (nothing_selected . "choose an album (RET in the album list) and a photo first")
    (no_such_session . "M-x pickerd-pick creates the session (`pickerd-session')")
    (no_such_album . "choose one of (pickerd-albums)")
    (no_such_photo . "the album changed: press g in the photo list to reload it")
    (session_exists . "reuse it: M-x pickerd-pick attaches to an existing session")
    (out_of_range . "use a value inside the range the message states")
    (too_busy . "wait for your pending requests (pickerd-wait) before sending more")
    (unsupported_version . "update pickerd.el to the daemon's protocol version")
    (permission_denied . "run Emacs as the user that runs pickerd"))
  "How to fix an error, by name, in Emacs terms.
The daemon's message says what is wrong.")

(define-error 'pickerd-error "pickerd")
(define-error 'pickerd-wire-error "pickerd: bad bytes" 'pickerd-error)

(defun pickerd-error-name (code)
  "The name of error CODE, a symbol.
`internal' for a code this client does not know."
  (or (alist-get code pickerd-error-names) 'internal))

(defun pickerd--error-data (code message &optional id hint)
  "The data of a `pickerd-error': a plist with :code :name :message :id :hint."
  (let ((name (pickerd-error-name code)))
    (list :code code :name name :message message :id (or id 0)
          :hint (or hint (alist-get name pickerd-hints)))))

(defun pickerd--wire-error (code message)
  (signal 'pickerd-wire-error (pickerd--error-data code message)))

(defun pickerd-error-message (err)
  "A one-line text for ERR, a caught `pickerd-error'.
The daemon's message, then the hint."
  (let ((data (cdr err)))
    (concat (format "%s (%s): %s" (plist-get data :name) (plist-get data :code)
                    (plist-get data :message))
            (if (plist-get data :hint) (format " [hint: %s]" (plist-get data :hint)) ""))))

(defun pickerd-message-type (type)
  "The number of message TYPE (a number, or a name symbol such as `albums')."
  (if (integerp type) type
    (or (car (cl-find type pickerd-messages :key #'cadr))
        (error "pickerd: no message named %s" type))))

(defun pickerd-message-name (type)
  "The name of message TYPE, or nil when this client does not know it."
  (cadr (assq type pickerd-messages)))

;;;;; Encoding

(defun pickerd--uint (value size)
  "VALUE as SIZE big-endian bytes, a unibyte string."
  (let ((bytes nil) (v (logand value (1- (ash 1 (* 8 size))))))
    (dotimes (_ size)
      (push (logand v 255) bytes)
      (setq v (ash v -8)))
    (apply #'unibyte-string bytes)))

(defun pickerd--utf8 (s)
  (encode-coding-string (or s "") 'utf-8-unix t))

(defun pickerd--encode-value (kind value)
  (pcase kind
    ('u8 (pickerd--uint (or value 0) 1))
    ('format (pickerd--uint (pickerd-format-code value) 1))
    ('u16 (pickerd--uint (or value 0) 2))
    ('u32 (pickerd--uint (or value 0) 4))
    ((or 'u64 'i64) (pickerd--uint (or value 0) 8))
    ('bool (unibyte-string (if (and value (not (eq value 0))) 1 0)))
    ('string (let ((b (pickerd--utf8 value))) (concat (pickerd--uint (length b) 4) b)))
    ('blob (let ((b (or value ""))) (concat (pickerd--uint (length b) 4) b)))
    ('selector (cond ((integerp value) (concat (unibyte-string 2) (pickerd--uint value 4)))
                     ((stringp value) (concat (unibyte-string 1)
                                              (pickerd--encode-value 'string value)))
                     (t (error "pickerd: a selector is a name or a 1-based index, not %S"
                               value))))
    (`(list ,elem) (apply #'concat (pickerd--uint (length value) 4)
                          (mapcar (lambda (v) (pickerd--encode-value elem v)) value)))
    (`(struct ,fields) (pickerd--encode-fields fields value))
    (`(optional ,fields) (if value
                             (concat (unibyte-string 1) (pickerd--encode-fields fields value))
                           (unibyte-string 0)))
    ;; Not checked here: the daemon answers out_of_range.
    (`(range ,elem ,_lo ,_hi) (pickerd--encode-value elem value))
    (_ (error "pickerd: unknown field kind %S" kind))))

(defun pickerd--encode-fields (fields values)
  "FIELDS (a schema) of VALUES (an alist) as bytes.
Missing numbers are 0, missing strings empty."
  (apply #'concat
         (mapcar (lambda (field)
                   (pcase (cdr field)
                     (`(if-flag ,bit ,sub)
                      (if (/= 0 (logand (or (alist-get 'flags values) 0) bit))
                          (pickerd--encode-fields sub (alist-get (car field) values))
                        ""))
                     (`(trailing ,bit ,sub)
                      (if (/= 0 (logand (or (alist-get 'flags values) 0) bit))
                          (pickerd--encode-fields sub values)
                        ""))
                     (`(tail ,sub)
                      (let ((v (alist-get (car field) values)))
                        (if v (pickerd--encode-value sub v) "")))
                     (kind (pickerd--encode-value kind (alist-get (car field) values)))))
                 fields)))

(defun pickerd-encode-payload (type fields)
  "The payload of message TYPE (a number or name) from FIELDS, an alist."
  (let ((entry (assq (pickerd-message-type type) pickerd-messages)))
    (unless entry (error "pickerd: no message type %S" type))
    (pickerd--encode-fields (nth 2 entry) fields)))

(defun pickerd-frame (type id payload)
  "A whole frame: header of TYPE and ID, then PAYLOAD (unibyte)."
  (concat (pickerd--uint (+ 5 (length payload)) 4) (pickerd--uint type 1)
          (pickerd--uint id 4) payload))

(defun pickerd-encode-frame (type id fields)
  "The frame of message TYPE with request ID and FIELDS (an alist)."
  (let ((type (pickerd-message-type type)))
    (pickerd-frame type id (pickerd-encode-payload type fields))))

;;;;; Decoding

(defun pickerd--take (r n)
  "N bytes from reader R, a cons (DATA . POS)."
  (let ((pos (cdr r)))
    (when (> (+ pos n) (length (car r)))
      (pickerd--wire-error 1 (format "payload ends early (wanted %d bytes at offset %d of %d)"
                                     n pos (length (car r)))))
    (setcdr r (+ pos n))
    (substring (car r) pos (+ pos n))))

(defun pickerd--read-uint (r size)
  (let ((s (pickerd--take r size)) (v 0))
    (dotimes (i size) (setq v (+ (* v 256) (aref s i))))
    v))

(defun pickerd--min-size (kind)
  "Fewest bytes KIND takes.
A list count that cannot fit is refused before reading on."
  (pcase kind
    ((or 'u8 'bool 'format) 1) ('u16 2) ((or 'u32 'string 'blob) 4) ((or 'u64 'i64) 8) ('selector 5)
    (`(struct ,fields) (apply #'+ (mapcar (lambda (f) (if (memq (car-safe (cdr f)) '(if-flag trailing tail)) 0
                                                        (pickerd--min-size (cdr f))))
                                          fields)))
    (`(range ,elem ,_lo ,_hi) (pickerd--min-size elem))
    (_ 4)))

(defun pickerd--decode-value (kind r)
  (pcase kind
    ((or 'u8 'format) (pickerd--read-uint r 1))
    ('u16 (pickerd--read-uint r 2))
    ('u32 (pickerd--read-uint r 4))
    ('u64 (pickerd--read-uint r 8))
    ('i64 (let ((v (pickerd--read-uint r 8))) (if (>= v (ash 1 63)) (- v (ash 1 64)) v)))
    ('bool (let ((v (pickerd--read-uint r 1)))
             (if (> v 1) (pickerd--wire-error 1 (format "bool byte %d" v)) (= v 1))))
    ('string (let* ((raw (pickerd--take r (pickerd--read-uint r 4)))
                    (s (decode-coding-string raw 'utf-8-unix t)))
               ;; Invalid UTF-8 decodes to raw-byte characters (#x3FFF80...): refuse it.
               (when (cl-some (lambda (c) (>= c #x3FFF80)) s)
                 (pickerd--wire-error 1 "string is not UTF-8"))
               s))
    ('blob (pickerd--take r (pickerd--read-uint r 4)))
    ('selector (pcase (pickerd--read-uint r 1)
                 (1 (pickerd--decode-value 'string r))
                 (2 (pickerd--read-uint r 4))
                 (k (pickerd--wire-error 1 (format "selector kind %d" k)))))
    (`(list ,elem)
     (let ((n (pickerd--read-uint r 4)))
       (when (> (* n (pickerd--min-size elem)) (- (length (car r)) (cdr r)))
         (pickerd--wire-error 1 (format "list of %d elements cannot fit in the payload" n)))
       (let (out) (dotimes (_ n) (push (pickerd--decode-value elem r) out)) (nreverse out))))
    (`(struct ,fields) (pickerd--decode-fields fields r))
    (`(optional ,fields) (and (pickerd--decode-value 'bool r) (pickerd--decode-fields fields r)))
    (`(range ,elem ,lo ,hi)
     (let ((v (pickerd--decode-value elem r)))
       (unless (<= lo v hi)
         (pickerd--wire-error 15 (format "%d is outside %d...%d" v lo hi)))
       v))
    (_ (error "pickerd: unknown field kind %S" kind))))

(defun pickerd--decode-fields (fields r)
  (let (out)
    (dolist (field fields)
      (pcase (cdr field)
        (`(trailing ,_bit ,sub)
         (dolist (f (if (< (cdr r) (length (car r)))
                        (pickerd--decode-fields sub r)
                      ;; Absent: flags 0, flagged groups nil.
                      (mapcar (lambda (f) (cons (car f) (if (eq (car-safe (cdr f)) 'if-flag) nil 0)))
                              sub)))
           (push f out)))
        (`(tail ,sub)
         (push (cons (car field) (and (< (cdr r) (length (car r))) (pickerd--decode-value sub r))) out))
        (kind
         (push (cons (car field)
                     (pcase kind
                       (`(if-flag ,bit ,sub)
                        (and (/= 0 (logand (or (alist-get 'flags out) 0) bit))
                             (pickerd--decode-fields sub r)))
                       (_ (pickerd--decode-value kind r))))
               out))))
    (nreverse out)))

(defun pickerd-decode-payload (type payload)
  "The fields (an alist) of message TYPE from PAYLOAD, consumed exactly.
Signals `pickerd-wire-error' (code 4 for a type not in the table, 1
for bad bytes, 15 for a ranged field such as terminal cells outside
its range)."
  (let ((entry (assq type pickerd-messages)))
    (unless entry (pickerd--wire-error 4 (format "unknown message type 0x%02x" type)))
    (let* ((r (cons payload 0))
           (fields (pickerd--decode-fields (nth 2 entry) r)))
      (unless (= (cdr r) (length payload))
        (pickerd--wire-error 1 (format "%d unexpected bytes after the payload"
                                       (- (length payload) (cdr r)))))
      fields)))

(defun pickerd-parse-frame (data &optional max-length)
  "The first frame in unibyte DATA: (TYPE ID PAYLOAD CONSUMED).
nil when it is incomplete.
A length below 5 or above MAX-LENGTH (default `pickerd-max-reply-frame') signals
`pickerd-wire-error' before anything else is read."
  (when (>= (length data) 4)
    (let ((len (pickerd--read-uint (cons data 0) 4)))
      (cond ((< len 5)
             (pickerd--wire-error 1 (format "frame length %d is below the 5-byte header" len)))
            ((> len (or max-length pickerd-max-reply-frame))
             (pickerd--wire-error 3 (format "frame of %d bytes exceeds the maximum of %d bytes"
                                            len (or max-length pickerd-max-reply-frame))))
            ((>= (length data) (+ 4 len))
             (let ((r (cons data 4)))
               (list (pickerd--read-uint r 1) (pickerd--read-uint r 4)
                     (substring data 9 (+ 4 len)) (+ 4 len))))))))

(defun pickerd-decode-request (data)
  "DATA, one whole request frame, as the daemon reads it: (TYPE ID FIELDS)."
  (let ((f (pickerd-parse-frame data pickerd-max-request-frame)))
    (unless (and f (= (nth 3 f) (length data)))
      (pickerd--wire-error 1 "not exactly one frame"))
    (unless (memq (car f) pickerd-request-types)
      (pickerd--wire-error 4 (format "0x%02x is not a request" (car f))))
    (list (car f) (nth 1 f) (pickerd-decode-payload (car f) (nth 2 f)))))

(defun pickerd-decode-event (type id payload)
  "An event frame as an alist: (kind . NAME) (subscription . ID), fields.
A session event's change is a symbol (`selection'...) or `change-N'.
An event type this client does not know is kept: kind `unknown', with
its (type . N) and raw (payload . BYTES)."
  (let ((name (pickerd-message-name type)))
    (if (not name)
        `((kind . unknown) (subscription . ,id) (type . ,type) (payload . ,payload))
      (let ((fields (pickerd-decode-payload type payload)))
        (when (assq 'change fields)
          (let ((c (alist-get 'change fields)))
            (setf (alist-get 'change fields)
                  (or (alist-get c pickerd-session-changes) (intern (format "change-%d" c))))))
        `((kind . ,name) (subscription . ,id) ,@fields)))))

;;;; The connection

(cl-defstruct (pickerd-conn (:constructor pickerd--make-conn))
  process buffer (next-id 1) (replies (make-hash-table)) lost capabilities
  (max-reply pickerd-max-reply-frame) (events nil) event-function (subscription 0)
  (callbacks (make-hash-table)))

(defun pickerd-default-socket ()
  "The socket path: `pickerd-socket', else $PICKER_SOCKET, ...
else $XDG_RUNTIME_DIR/pickerd.sock, else /tmp/pickerd-UID/pickerd.sock."
  (let ((env (getenv "PICKER_SOCKET")) (runtime (getenv "XDG_RUNTIME_DIR")))
    (cond (pickerd-socket pickerd-socket)
          ((and env (not (string-empty-p env))) env)
          ((and runtime (not (string-empty-p runtime))) (expand-file-name "pickerd.sock" runtime))
          (t (format "/tmp/pickerd-%d/pickerd.sock" (user-uid))))))

(defun pickerd-connect (&optional socket)
  "A new connection to the daemon on SOCKET, handshake done.
SOCKET defaults to `pickerd-default-socket'."
  (let* ((path (or socket (pickerd-default-socket)))
         (attrs (file-attributes path 'integer)))
    (unless attrs
      (signal 'pickerd-error
              (pickerd--error-data 0 (format "pickerd is not running on %s" path) 0
                                   (format "start it (`pickerd --socket %s &') or set `pickerd-socket'" path))))
    ;; No SO_PEERCRED from Lisp: the socket file must at least be ours.
    (unless (= (file-attribute-user-id attrs) (user-uid))
      (signal 'pickerd-error
              (pickerd--error-data 9 (format "the socket %s belongs to uid %d, not to you"
                                             path (file-attribute-user-id attrs)))))
    (let* ((buffer (generate-new-buffer " *pickerd-conn*"))
           (conn (pickerd--make-conn :buffer buffer))
           (proc (condition-case err
                     (make-network-process :name "pickerd" :family 'local :service path
                                           :coding 'binary :noquery t
                                           :filter #'pickerd--filter :sentinel #'pickerd--sentinel)
                   (file-error
                    (kill-buffer buffer)
                    (signal 'pickerd-error
                            (pickerd--error-data 0 (format "pickerd is not running on %s (%s)" path
                                                           (error-message-string err))
                                                 0 (format "start it (`pickerd --socket %s &')" path)))))))
      (with-current-buffer buffer (set-buffer-multibyte nil))
      (set-process-query-on-exit-flag proc nil)
      (process-put proc 'pickerd-conn conn)
      (setf (pickerd-conn-process conn) proc)
      (condition-case err
          (let ((caps (pickerd-request 'hello `((version . ,pickerd-protocol-version)
                                                (client_name . "pickerd.el"))
                                       conn)))
            (setf (pickerd-conn-capabilities conn) caps
                  (pickerd-conn-max-reply conn) (alist-get 'max_reply_frame caps))
            conn)
        (error (pickerd-close conn) (signal (car err) (cdr err)))))))

(defun pickerd-close (conn)
  "Close CONN."
  (when (process-live-p (pickerd-conn-process conn))
    (delete-process (pickerd-conn-process conn)))
  (when (buffer-live-p (pickerd-conn-buffer conn))
    (kill-buffer (pickerd-conn-buffer conn)))
  (unless (pickerd-conn-lost conn)
    (setf (pickerd-conn-lost conn) (pickerd--error-data 0 "the connection is closed"))))

(defun pickerd--lose (conn data)
  (unless (pickerd-conn-lost conn) (setf (pickerd-conn-lost conn) data))
  (when (process-live-p (pickerd-conn-process conn))
    (delete-process (pickerd-conn-process conn))))

(defun pickerd--sentinel (proc _event)
  (let ((conn (process-get proc 'pickerd-conn)))
    (when (and conn (not (process-live-p proc)) (not (pickerd-conn-lost conn)))
      (setf (pickerd-conn-lost conn) (pickerd--error-data 0 "pickerd closed the connection")))))

(defun pickerd--filter (proc chunk)
  "The process filter: CHUNK goes to PROC's connection."
  (let ((conn (process-get proc 'pickerd-conn)))
    (when conn (pickerd--receive conn chunk))))

(defun pickerd--receive (conn chunk)
  "Append CHUNK to CONN's unibyte buffer; route every whole frame in it.
Partial input stays buffered (\"need more\"); a bad length loses CONN."
  (when (buffer-live-p (pickerd-conn-buffer conn))
    (with-current-buffer (pickerd-conn-buffer conn)
      (goto-char (point-max))
      (insert (if (multibyte-string-p chunk) (string-to-unibyte chunk) chunk))
      (condition-case err
          (let ((max (pickerd-conn-max-reply conn)) end)
            ;; The header is checked first; the frame is copied out only once it is whole.
            (while (and (>= (buffer-size) 4)
                        (progn (pickerd-parse-frame (buffer-substring-no-properties 1 5) max)
                               (setq end (pickerd--frame-end))
                               (>= (buffer-size) end)))
              (let ((frame (pickerd-parse-frame (buffer-substring-no-properties 1 (1+ end)) max)))
                (delete-region 1 (1+ end))
                (pickerd--route conn frame))))
        (pickerd-wire-error
         (pickerd--lose conn (pickerd--error-data 1 (format "the server sent a bad frame: %s"
                                                            (plist-get (cdr err) :message)))))))))

(defun pickerd--frame-end ()
  "Bytes of the frame at the start of the current (unibyte) buffer.
4 (its header) when the length is bad."
  (let ((len (pickerd--read-uint (cons (buffer-substring-no-properties 1 5) 0) 4)))
    (if (< len 5) 4 (+ 4 len))))

(defun pickerd--route (conn frame)
  (pcase-let ((`(,type ,id ,payload ,_) frame))
    (cond
     ((/= 0 (logand type #x80))
      ;; Events: kept only for the current subscription; an unreadable one is skipped,
      ;; it must not fail an unrelated request.
      (when (= id (pickerd-conn-subscription conn))
        (let ((event (condition-case nil (pickerd-decode-event type id payload)
                       (pickerd-wire-error nil))))
          (when event
            (if (pickerd-conn-event-function conn)
                (with-demoted-errors "pickerd event handler: %S"
                  (funcall (pickerd-conn-event-function conn) event))
              (setf (pickerd-conn-events conn)
                    (append (pickerd-conn-events conn) (list event))))))))
     ((and (= id 0) (= type #x03))
      (let ((e (condition-case nil (pickerd-decode-payload type payload)
                 (pickerd-wire-error '((code . 1) (message . "unreadable connection error"))))))
        (pickerd--lose conn (pickerd--error-data (alist-get 'code e) (alist-get 'message e)))))
     ((gethash id (pickerd-conn-callbacks conn))
      (let ((callback (gethash id (pickerd-conn-callbacks conn))))
        (remhash id (pickerd-conn-callbacks conn))
        (pickerd--answer-callback callback type payload id)))
     (t (puthash id (cons type payload) (pickerd-conn-replies conn))))))

(defun pickerd--answer-callback (callback type payload id)
  "Call CALLBACK with the reply's fields and nil, or nil and the error's data."
  (let ((result (condition-case err
                    (let ((fields (pickerd-decode-payload type payload)))
                      (if (= type #x03)
                          (list nil (pickerd--error-data (alist-get 'code fields)
                                                         (alist-get 'message fields) id))
                        (list fields nil)))
                  (pickerd-wire-error (list nil (pickerd--error-data 1 (plist-get (cdr err) :message) id))))))
    (with-demoted-errors "pickerd callback: %S"
      (apply callback result))))

(defun pickerd-send (type fields &optional conn)
  "Send request TYPE (number or name such as `albums') with FIELDS.
Return its id.
Wait for the reply with `pickerd-wait': requests can be pipelined."
  (let* ((conn (or conn (pickerd-default-connection)))
         (type (pickerd-message-type type))
         (payload (if (stringp fields) fields (pickerd-encode-payload type fields)))
         (id (pickerd-conn-next-id conn)))
    (when (pickerd-conn-lost conn) (signal 'pickerd-error (pickerd-conn-lost conn)))
    (when (> (+ 5 (length payload)) pickerd-max-request-frame)
      (signal 'pickerd-error (pickerd--error-data 3 (format "request of %d bytes exceeds the maximum of %d bytes"
                                                            (+ 5 (length payload)) pickerd-max-request-frame))))
    (setf (pickerd-conn-next-id conn) (if (< id #xFFFFFFFF) (1+ id) 1))
    (condition-case err
        (process-send-string (pickerd-conn-process conn) (pickerd-frame type id payload))
      (error (pickerd--lose conn (pickerd--error-data 0 (format "cannot send to pickerd: %s"
                                                                (error-message-string err))))
             (signal 'pickerd-error (pickerd-conn-lost conn))))
    id))

(defun pickerd-wait (id &optional conn timeout)
  "Wait for the reply to request ID on CONN and return its fields (an alist).
An `error' reply signals `pickerd-error' (data: :code :name :message :id :hint)."
  (let* ((conn (or conn (pickerd-default-connection)))
         (proc (pickerd-conn-process conn))
         (deadline (+ (float-time) (or timeout pickerd-timeout)))
         reply)
    (while (not (setq reply (gethash id (pickerd-conn-replies conn))))
      (when (pickerd-conn-lost conn) (signal 'pickerd-error (pickerd-conn-lost conn)))
      (when (> (float-time) deadline)
        (signal 'pickerd-error (pickerd--error-data 0 (format "no reply to request %d within %s s"
                                                              id (or timeout pickerd-timeout))
                                                    id)))
      (accept-process-output proc 0.05 nil t))
    (remhash id (pickerd-conn-replies conn))
    (let ((fields (condition-case err (pickerd-decode-payload (car reply) (cdr reply))
                    (pickerd-wire-error
                     (signal 'pickerd-error (pickerd--error-data 1 (plist-get (cdr err) :message) id))))))
      (if (= (car reply) #x03)
          (signal 'pickerd-error (pickerd--error-data (alist-get 'code fields)
                                                      (alist-get 'message fields) id))
        fields))))

(defun pickerd-request (type payload &optional conn)
  "Send request TYPE with PAYLOAD; return the reply's fields (an alist).
PAYLOAD is an alist of PROTOCOL.md fields.  TYPE is a message number
or name (`ping', `albums', `selectAlbum'...).  Synchronous, on CONN
\(default: `pickerd-default-connection').
A `format' is a number or a name of `pickerd-formats': `png', `jpeg',
`webp', or for a terminal `sixel' and `symbols' (UTF-8 text in `data';
symbols needs cells: `getImage' and `preview' take (flags . 2) and
\(cells (cols . C) (rows . R)), each 1...1000)."
  (let ((conn (or conn (pickerd-default-connection))))
    (pickerd-wait (pickerd-send type payload conn) conn)))

(defun pickerd-request-async (type payload callback &optional conn)
  "Send request TYPE with PAYLOAD; return its id at once.
CALLBACK is called from the process filter with (FIELDS nil) for a
reply, or (nil ERROR-DATA) for an `error' reply (data as in
`pickerd-error').  Emacs does not wait: the picker loads images so."
  (let* ((conn (or conn (pickerd-default-connection)))
         (id (pickerd-send type payload conn)))
    (puthash id callback (pickerd-conn-callbacks conn))
    id))

(defvar pickerd--default-connection nil)

(defun pickerd-default-connection ()
  "The shared connection of the library functions, opened when needed."
  (unless (and pickerd--default-connection
               (not (pickerd-conn-lost pickerd--default-connection)))
    (setq pickerd--default-connection (pickerd-connect)))
  pickerd--default-connection)

(defun pickerd-subscribe (conn session &optional library function)
  "Subscribe CONN to SESSION's events (and the library's when LIBRARY).
FUNCTION, when given, is called with each event alist; else events queue in
`pickerd-conn-events'."
  (let ((id (pickerd-send 'subscribe `((session . ,(or session "")) (flags . ,(if library 1 0))) conn)))
    (setf (pickerd-conn-subscription conn) id
          (pickerd-conn-event-function conn) function
          (pickerd-conn-events conn) nil)
    (pickerd-wait id conn)
    id))

;;;; Library functions

(defun pickerd-albums ()
  "The album names, \"All Photos\" first."
  (mapcar (lambda (a) (alist-get 'name a))
          (alist-get 'albums (pickerd-request 'albums nil))))

(defun pickerd-selection (&optional session)
  "Absolute paths of SESSION's picks (default `pickerd-session'), in pick order."
  (mapcar (lambda (p) (alist-get 'absolute_path p))
          (alist-get 'photos (pickerd-request 'selection `((session . ,(or session pickerd-session)))))))

(defun pickerd-clear-selection (&optional session)
  "Unpick every photo of SESSION (default `pickerd-session')."
  (interactive)
  (pickerd-request 'clearSelection `((session . ,(or session pickerd-session))))
  nil)

(defun pickerd-png-size (data)
  "(WIDTH . HEIGHT) from PNG bytes DATA's IHDR, or nil when DATA is not a PNG."
  (when (and (>= (length data) 24)
             (string= (substring data 0 8) (unibyte-string #x89 ?P ?N ?G 13 10 26 10))
             (string= (substring data 12 16) "IHDR"))
    (cons (pickerd--read-uint (cons data 16) 4) (pickerd--read-uint (cons data 20) 4))))

;;;; Inserting picks

(defun pickerd--insert-style (buffer)
  (with-current-buffer buffer
    (cond ((derived-mode-p 'org-mode) 'org)
          ((or (derived-mode-p 'markdown-mode 'gfm-mode)
               (and buffer-file-name (string-match-p "\\.\\(md\\|markdown\\)\\'" buffer-file-name)))
           'markdown)
          (t 'path))))

(defun pickerd-format-picks (paths buffer)
  "The text that inserts PATHS into BUFFER, following `pickerd-insert-format'."
  (if (functionp pickerd-insert-format)
      (funcall pickerd-insert-format paths buffer)
    (let ((style (if (eq pickerd-insert-format 'auto) (pickerd--insert-style buffer)
                   pickerd-insert-format)))
      (mapconcat (lambda (p)
                   (pcase style
                     ('org (format "[[file:%s]]" p))
                     ('markdown (format "![](%s)" (replace-regexp-in-string " " "%20" p)))
                     (_ p)))
                 paths "\n"))))

(defun pickerd-insert-picks (paths buffer &optional position)
  "Insert PATHS into BUFFER at POSITION, formatted for its mode.
POSITION defaults to BUFFER's point."
  (with-current-buffer buffer
    (save-excursion
      (when position (goto-char position))
      (insert (pickerd-format-picks paths buffer)))))

;;;; The picker: album list | photo list | image

(cl-defstruct (pickerd-picker (:constructor pickerd--make-picker))
  conn session origin origin-marker windows albums photos state picks albums-buffer
  photos-buffer image-buffer refresh-timer image-data)

(defvar-local pickerd--picker nil "The picker this buffer belongs to.")

(defvar pickerd-albums-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'pickerd-pick-select-album)
    (define-key map (kbd "n") #'next-line)
    (define-key map (kbd "p") #'previous-line)
    (define-key map (kbd "TAB") #'pickerd-pick-other-pane)
    (define-key map (kbd "g") #'pickerd-pick-refresh)
    (define-key map (kbd "q") #'pickerd-pick-quit)
    map))

(defvar pickerd-photos-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "SPC") #'pickerd-pick-toggle)
    (define-key map (kbd "RET") #'pickerd-pick-insert)
    (define-key map (kbd "n") #'pickerd-pick-next)
    (define-key map (kbd "p") #'pickerd-pick-previous)
    (define-key map (kbd "TAB") #'pickerd-pick-other-pane)
    (define-key map (kbd "g") #'pickerd-pick-refresh)
    (define-key map (kbd "q") #'pickerd-pick-quit)
    map))

(define-derived-mode pickerd-albums-mode special-mode "Albums"
  "The picker's album list.  RET selects an album.")

(define-derived-mode pickerd-photos-mode special-mode "Photos"
  "The picker's photo list.  SPC picks, RET inserts the picks, n/p move."
  (add-hook 'post-command-hook #'pickerd--photos-follow-point nil t))

(defun pickerd--photos-follow-point ()
  "The photo under point is the current one (seed 002): show it when point moved."
  (when-let ((picker pickerd--picker)
             (index (get-text-property (line-beginning-position) 'pickerd-index)))
    (unless (equal index (alist-get 'photo_index (pickerd-picker-state picker)))
      (pickerd-pick-show-photo))))

(define-derived-mode pickerd-image-mode special-mode "Photo"
  "The picker's current photo.")

(defun pickerd--pane-size (window)
  "WINDOW's body in pixels, within the protocol's 16...8192."
  (cons (max 16 (min 8192 (window-body-width window t)))
        (max 16 (min 8192 (window-body-height window t)))))

;;;###autoload
(defun pickerd-pick ()
  "Pick photos: album list | photo list | image.
SPC picks, RET inserts the picks at point."
  (interactive)
  (let* ((origin (current-buffer))
         (conn (pickerd-connect))
         (picker (pickerd--make-picker :conn conn :session pickerd-session :origin origin
                                       :origin-marker (copy-marker (point) t)
                                       :windows (current-window-configuration))))
    (condition-case err
        (progn
          (pickerd--picker-layout picker)
          (pickerd--picker-open-session picker)
          (pickerd-subscribe conn pickerd-session nil
                             (lambda (event) (pickerd--picker-event picker event)))
          (pickerd--picker-reload picker)
          (select-window (get-buffer-window (pickerd-picker-albums-buffer picker)))
          picker)
      (error (pickerd--picker-close picker)
             (signal (car err) (cdr err))))))

(defun pickerd--picker-buffer (picker name mode)
  (let ((buffer (get-buffer-create name)))
    (with-current-buffer buffer
      (funcall mode)
      (setq pickerd--picker picker)
      (setq header-line-format '(:eval (pickerd--header-line))))
    buffer))

(defun pickerd--picker-layout (picker)
  "Seed 002's three panes, side by side: albums | photos | image."
  (setf (pickerd-picker-albums-buffer picker)
        (pickerd--picker-buffer picker "*pickerd-albums*" #'pickerd-albums-mode)
        (pickerd-picker-photos-buffer picker)
        (pickerd--picker-buffer picker "*pickerd-photos*" #'pickerd-photos-mode)
        (pickerd-picker-image-buffer picker)
        (pickerd--picker-buffer picker "*pickerd-image*" #'pickerd-image-mode))
  (delete-other-windows)
  (let* ((albums (selected-window))
         (photos (ignore-errors (split-window albums (max 10 (/ (window-total-width albums) 4)) t)))
         (image (and photos (ignore-errors (split-window photos (max 10 (/ (window-total-width photos) 3)) t)))))
    (set-window-buffer albums (pickerd-picker-albums-buffer picker))
    (when photos (set-window-buffer photos (pickerd-picker-photos-buffer picker)))
    (when image (set-window-buffer image (pickerd-picker-image-buffer picker)))))

(defun pickerd--picker-open-session (picker)
  "Create the session at the image pane's size, or attach to it and resize it."
  (let* ((conn (pickerd-picker-conn picker))
         (window (get-buffer-window (pickerd-picker-image-buffer picker)))
         (size (if window (pickerd--pane-size window) '(640 . 480)))
         (name (pickerd-picker-session picker)))
    (condition-case err
        (pickerd-request 'sessionNew `((name . ,name) (width . ,(car size)) (height . ,(cdr size))
                                       (max_selection . ,pickerd-max-selection))
                         conn)
      (pickerd-error
       (if (eq (plist-get (cdr err) :name) 'session_exists)
           (pickerd-request 'sessionResize `((session . ,name) (width . ,(car size))
                                             (height . ,(cdr size)))
                            conn)
         (signal (car err) (cdr err)))))))

(defun pickerd--call (picker type &rest fields)
  "Request TYPE on PICKER's session with FIELDS (alternating keys and values)."
  (let ((alist `((session . ,(pickerd-picker-session picker)))))
    (while fields
      (push (cons (pop fields) (pop fields)) alist))
    (pickerd-request type alist (pickerd-picker-conn picker))))

(defun pickerd--picker-reload (picker)
  "Fetch albums, state, photos, picks and the image again, and redraw every pane."
  (let ((conn (pickerd-picker-conn picker)))
    (setf (pickerd-picker-albums picker) (alist-get 'albums (pickerd-request 'albums nil conn)))
    (setf (pickerd-picker-state picker) (pickerd--call picker 'status))
    (setf (pickerd-picker-photos picker)
          (if (equal (alist-get 'album (pickerd-picker-state picker)) "") nil
            (condition-case nil
                (alist-get 'photos (pickerd--call picker 'photosPage 'offset 0 'limit 10000))
              (pickerd-error nil))))
    (pickerd--picker-load-picks picker)
    (pickerd--picker-load-image picker)
    (pickerd--picker-render picker)))

(defun pickerd--picker-load-picks (picker)
  (setf (pickerd-picker-picks picker)
        (mapcar (lambda (p) (alist-get 'path p))
                (alist-get 'photos (pickerd--call picker 'selection)))))

(defun pickerd--picker-load-image (picker)
  "The current photo as PNG bytes, or nil when none is selected."
  (setf (pickerd-picker-image-data picker)
        (and (/= 0 (alist-get 'photo_index (pickerd-picker-state picker) 0))
             (condition-case nil
                 (alist-get 'data (pickerd--call picker 'getImage 'format 2 'quality 0 'flags 0))
               (pickerd-error nil)))))

(defun pickerd--header-line ()
  "Title left, message right (seed 002's labels)."
  (when pickerd--picker
    (let* ((state (pickerd-picker-state pickerd--picker))
           (title (alist-get 'title state ""))
           (message (alist-get 'message state "")))
      (concat " " title
              (propertize " " 'display `(space :align-to (- right ,(1+ (string-width message)))))
              message))))

(defun pickerd--picker-render (picker)
  (let ((state (pickerd-picker-state picker)))
    (pickerd--render-lines
     (pickerd-picker-albums-buffer picker)
     (mapcar (lambda (a)
               (cons (alist-get 'index a)
                     (format "%s %s (%d)"
                             (if (equal (alist-get 'index a) (alist-get 'album_index state)) ">" " ")
                             (alist-get 'name a) (alist-get 'photo_count a))))
             (pickerd-picker-albums picker))
     (alist-get 'album_index state))
    (pickerd--render-lines
     (pickerd-picker-photos-buffer picker)
     (mapcar (lambda (p)
               (cons (alist-get 'index p)
                     (format "%s %s %s  %dx%d"
                             (if (equal (alist-get 'index p) (alist-get 'photo_index state)) ">" " ")
                             (if (member (alist-get 'path p) (pickerd-picker-picks picker)) "[x]" "[ ]")
                             (alist-get 'name p) (alist-get 'width p) (alist-get 'height p))))
             (pickerd-picker-photos picker))
     (alist-get 'photo_index state))
    (pickerd--render-image picker)
    (force-mode-line-update t)))

(defun pickerd--render-lines (buffer rows current)
  "Fill BUFFER with ROWS ((INDEX . TEXT) ...).
Point goes to the row whose index is CURRENT."
  (with-current-buffer buffer
    (let ((inhibit-read-only t) (keep (line-number-at-pos)) (target nil))
      (erase-buffer)
      (dolist (row rows)
        (when (equal (car row) current) (setq target (point)))
        (insert (propertize (cdr row) 'pickerd-index (car row)) "\n"))
      (goto-char (or target (point-min)))
      (unless target (forward-line (1- keep)))
      (let ((w (get-buffer-window buffer))) (when w (set-window-point w (point)))))))

(defun pickerd--render-image (picker)
  (let ((data (pickerd-picker-image-data picker)))
    (with-current-buffer (pickerd-picker-image-buffer picker)
      (let ((inhibit-read-only t))
        (erase-buffer)
        (cond ((null data) (insert "(no photo selected)"))
              ((and (display-images-p) (create-image data 'png t))
               (insert-image (create-image data 'png t)))
              (t (let ((size (pickerd-png-size data)))
                   (insert (format "[PNG %dx%d, %d bytes: this display shows no images]"
                                   (or (car size) 0) (or (cdr size) 0) (length data))))))))))

(defun pickerd--picker-event (picker event)
  "A session event: redraw soon (not inside the process filter)."
  (when (eq (alist-get 'kind event) 'sessionEvent)
    (if (eq (alist-get 'change event) 'closed)
        (run-at-time 0 nil #'pickerd--picker-close picker)
      (unless (pickerd-picker-refresh-timer picker)
        (setf (pickerd-picker-refresh-timer picker)
              (run-at-time 0.05 nil (lambda ()
                                      (setf (pickerd-picker-refresh-timer picker) nil)
                                      (when (buffer-live-p (pickerd-picker-photos-buffer picker))
                                        (with-demoted-errors "pickerd: %S"
                                          (pickerd--picker-reload picker))))))))))

(defun pickerd--picker-or-error ()
  (or pickerd--picker (user-error "Not in a pickerd picker buffer")))

(defun pickerd--index-at-point ()
  (or (get-text-property (line-beginning-position) 'pickerd-index)
      (user-error "No row here")))

(defmacro pickerd--reporting (&rest body)
  "Run BODY; show a `pickerd-error' as a message with its hint.
Nothing is signalled."
  `(condition-case err (progn ,@body)
     (pickerd-error (message "pickerd: %s" (pickerd-error-message err)) nil)))

(defun pickerd-pick-select-album ()
  "Select the album on this line; the photo list follows."
  (interactive)
  (let ((picker (pickerd--picker-or-error)))
    (pickerd--reporting
     (pickerd--call picker 'selectAlbum 'album (pickerd--index-at-point))
     (pickerd--picker-reload picker)
     (let ((w (get-buffer-window (pickerd-picker-photos-buffer picker))))
       (when w (select-window w))))))

(defun pickerd-pick-show-photo ()
  "Make the photo on this line current and show it."
  (interactive)
  (let ((picker (pickerd--picker-or-error)))
    ;; Both requests are pipelined and answered in the filter: moving through the list
    ;; never waits for an image.  An image superseded by a newer one answers `cancelled'.
    (pickerd--reporting
     (let ((conn (pickerd-picker-conn picker))
           (session `((session . ,(pickerd-picker-session picker)))))
       (pickerd-request-async
        'selectPhoto `((photo . ,(pickerd--index-at-point)) ,@session)
        (lambda (fields err)
          (if err
              (message "pickerd: %s" (pickerd-error-message (cons 'pickerd-error err)))
            (setf (pickerd-picker-state picker) fields)
            (pickerd--picker-render picker)))
        conn)
       (pickerd-request-async
        'getImage `((format . 2) ,@session)
        (lambda (fields err)
          (unless (eq (plist-get err :name) 'cancelled)
            (setf (pickerd-picker-image-data picker) (alist-get 'data fields))
            (when (buffer-live-p (pickerd-picker-image-buffer picker))
              (pickerd--render-image picker))))
        conn)))))

(defun pickerd-pick-next ()
  "Next photo."
  (interactive)
  (forward-line 1)
  (when (eobp) (forward-line -1))
  (pickerd-pick-show-photo))

(defun pickerd-pick-previous ()
  "Previous photo."
  (interactive)
  (forward-line -1)
  (pickerd-pick-show-photo))

(defun pickerd-pick-toggle ()
  "Pick the photo on this line, or unpick it; then move to the next line."
  (interactive)
  (let ((picker (pickerd--picker-or-error)))
    (pickerd--reporting
     (let ((reply (pickerd--call picker 'toggle 'photo (pickerd--index-at-point))))
       (setf (pickerd-picker-picks picker)
             (mapcar (lambda (p) (alist-get 'path p)) (alist-get 'photos reply)))
       (pickerd--picker-render picker)
       (forward-line 1)
       (when (eobp) (forward-line -1))))))

(defun pickerd-pick-insert ()
  "Insert the picks in the buffer `pickerd-pick' was called from.
They go at its point then; the picker closes."
  (interactive)
  (let* ((picker (pickerd--picker-or-error))
         (paths (pickerd-selection-of picker))
         (origin (pickerd-picker-origin picker)))
    (pickerd--picker-close picker)
    (when (and paths (buffer-live-p origin))
      (pickerd-insert-picks paths origin (marker-position (pickerd-picker-origin-marker picker))))
    (message "pickerd: inserted %d photo%s" (length paths) (if (= 1 (length paths)) "" "s"))
    paths))

(defun pickerd-selection-of (picker)
  "Absolute paths of PICKER's picks."
  (mapcar (lambda (p) (alist-get 'absolute_path p))
          (alist-get 'photos (pickerd--call picker 'selection))))

(defun pickerd-pick-other-pane ()
  "Move between the album and photo lists."
  (interactive)
  (let* ((picker (pickerd--picker-or-error))
         (target (if (eq (current-buffer) (pickerd-picker-albums-buffer picker))
                     (pickerd-picker-photos-buffer picker)
                   (pickerd-picker-albums-buffer picker)))
         (w (get-buffer-window target)))
    (when w (select-window w))))

(defun pickerd-pick-refresh ()
  "Fetch everything again."
  (interactive)
  (pickerd--reporting (pickerd--picker-reload (pickerd--picker-or-error))))

(defun pickerd-pick-quit ()
  "Close the picker without inserting (the picks stay in the session)."
  (interactive)
  (pickerd--picker-close (pickerd--picker-or-error)))

(defun pickerd--picker-close (picker)
  "Close PICKER's connection and buffers and restore the windows.
No image is left behind."
  (when (pickerd-picker-refresh-timer picker)
    (cancel-timer (pickerd-picker-refresh-timer picker)))
  (pickerd-close (pickerd-picker-conn picker))
  (dolist (b (list (pickerd-picker-albums-buffer picker) (pickerd-picker-photos-buffer picker)
                   (pickerd-picker-image-buffer picker)))
    (when (buffer-live-p b) (kill-buffer b)))
  (when (pickerd-picker-windows picker)
    (ignore-errors (set-window-configuration (pickerd-picker-windows picker)))
    (setf (pickerd-picker-windows picker) nil)))

(provide 'pickerd)
;;; pickerd.el ends here
