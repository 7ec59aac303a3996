;;; pickerd-wire.el --- pickerd's wire codec: framing, encoding, decoding, errors  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "28.1"))
;; Keywords: multimedia, files
;; URL: docs/PROTOCOL.md in the pickerd repository

;;; Commentary:

;; Part of pickerd.el; load that (`(require 'pickerd)'), not this file.
;;
;; The wire codec walks one table, `pickerd-messages' (in pickerd-tables.el): each message
;; is a list of (FIELD . KIND), read and written by the same two functions.  Decoded payloads
;; are alists keyed by the field names of PROTOCOL.md.  Errors are signalled as
;; `pickerd-error' with the daemon's code, name and message plus a hint in Emacs terms.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'pickerd-tables)

;;;; The wire codec

;;;;; Errors

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
    ('opt-selector (if value (pickerd--encode-value 'selector value) (unibyte-string 0)))
    ;; The extension area (PROTOCOL.md, "Extending a message"): tag:u8, len:u32, bytes, as given.
    ('extensions (apply #'concat (mapcar (lambda (e) (concat (pickerd--uint (car e) 1)
                                                              (pickerd--encode-value 'blob (cdr e))))
                                         (sort (copy-sequence value) (lambda (a b) (< (car a) (car b)))))))
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
    ((or 'u8 'bool 'format 'opt-selector) 1) ('extensions 0) ('u16 2) ((or 'u32 'string 'blob) 4) ((or 'u64 'i64) 8) ('selector 5)
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
    ('opt-selector (if (and (< (cdr r) (length (car r))) (= 0 (aref (car r) (cdr r))))
                       (progn (setcdr r (1+ (cdr r))) nil)
                     (pickerd--decode-value 'selector r)))
    ;; To the end of the payload; a tag this client does not know is kept, never an error.
    ('extensions (let (area)
                   (while (< (cdr r) (length (car r)))
                     (let ((tag (pickerd--read-uint r 1)))
                       (when (assq tag area)
                         (pickerd--wire-error 1 (format "extension %d given twice" tag)))
                       (push (cons tag (pickerd--decode-value 'blob r)) area)))
                   (nreverse area)))
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

(provide 'pickerd-wire)
;;; pickerd-wire.el ends here
