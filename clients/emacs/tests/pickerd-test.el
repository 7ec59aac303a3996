;;; pickerd-test.el --- ERT tests of pickerd.el against a live daemon  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by clients/emacs/run-tests.sh, which starts pickerd on a temporary socket and library
;; and sets PICKER_SOCKET and PICKER_BIN_DIR (pickerctl).  The codec tests need no daemon.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'org)
(require 'pickerd)

(defvar pickerd-test-dir (file-name-directory (or load-file-name buffer-file-name)))
(defvar pickerd-test-protocol-md
  (expand-file-name "../../../docs/PROTOCOL.md" pickerd-test-dir))
(defvar pickerd-test-counter 0)

(defun pickerd-test-unique (prefix)
  (format "%s-%d-%d" prefix (emacs-pid) (cl-incf pickerd-test-counter)))

(defun pickerd-test-daemon-p ()
  (let ((s (getenv "PICKER_SOCKET"))) (and s (file-exists-p s))))

(defmacro pickerd-test-with-daemon (&rest body)
  "Skip unless run-tests.sh started a daemon; then run BODY."
  `(progn
     (skip-unless (pickerd-test-daemon-p))
     ,@body))

(defun pickerd-test-vectors ()
  "Every hex block of PROTOCOL.md: (KIND TITLE BYTES), KIND `vector' or `refused'."
  (with-temp-buffer
    (insert-file-contents pickerd-test-protocol-md)
    (goto-char (point-min))
    (let (out)
      (while (re-search-forward "<!-- \\(vector\\|refused\\): \\(.*?\\) -->[ \t\n]*```hex\n" nil t)
        (let ((kind (intern (match-string 1))) (title (match-string 2)) (start (point)))
          (re-search-forward "^```")
          (let ((bytes nil))
            (dolist (line (split-string (buffer-substring start (match-beginning 0)) "\n"))
              (dolist (hex (split-string (car (split-string line "#")) "[ \t]+" t))
                (push (string-to-number hex 16) bytes)))
            (push (list kind title (apply #'unibyte-string (nreverse bytes))) out))))
      (nreverse out))))

(defun pickerd-test-wait-for (predicate)
  "Read the daemon's output until PREDICATE holds (at most `pickerd-timeout' seconds)."
  (let ((deadline (+ (float-time) pickerd-timeout)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall predicate)))

(defun pickerd-test-pickerctl (&rest args)
  "Run pickerctl ARGS on the test daemon; its exit code."
  (apply #'call-process (expand-file-name "pickerctl" (getenv "PICKER_BIN_DIR")) nil nil nil
         "--socket" (getenv "PICKER_SOCKET") args))

(defun pickerd-test-folder-album (conn min-photos)
  "A folder album (not All Photos) with at least MIN-PHOTOS photos."
  (or (cl-find-if (lambda (a) (and (/= (alist-get 'index a) 1)
                                   (>= (alist-get 'photo_count a) min-photos)))
                  (alist-get 'albums (pickerd-request 'albums nil conn)))
      (ert-skip (format "no album with %d photos" min-photos))))

;;;; The codec

(ert-deftest pickerd-every-protocol-vector-round-trips ()
  "Each vector decodes to its named message and re-encodes byte for byte; every type has one."
  (let ((vectors (cl-remove-if-not (lambda (v) (eq (car v) 'vector)) (pickerd-test-vectors)))
        (seen nil))
    (should (>= (length vectors) 60))
    (dolist (v vectors)
      (let* ((title (nth 1 v)) (bytes (nth 2 v))
             (frame (pickerd-parse-frame bytes)))
        (should frame)
        (should (= (nth 3 frame) (length bytes)))
        (should (equal (symbol-name (pickerd-message-name (car frame))) (car (split-string title))))
        (should (equal (format "id=%d" (nth 1 frame)) (cadr (split-string title))))
        ;; One byte short is "need more", not an error.
        (should-not (pickerd-parse-frame (substring bytes 0 -1)))
        (let ((fields (pickerd-decode-payload (car frame) (nth 2 frame))))
          (should (equal (pickerd-encode-frame (car frame) (nth 1 frame) fields) bytes)))
        (push (car frame) seen)))
    (should-not (cl-set-difference (mapcar #'car pickerd-messages) seen))))

(ert-deftest pickerd-every-refused-vector-fails-with-its-code ()
  (let ((refused (cl-remove-if-not (lambda (v) (eq (car v) 'refused)) (pickerd-test-vectors))))
    (should (>= (length refused) 5))
    (dolist (v refused)
      (let ((err (should-error (pickerd-decode-request (nth 2 v)) :type 'pickerd-wire-error)))
        (should (equal (symbol-name (plist-get (cdr err) :name))
                       (car (split-string (nth 1 v)))))))))

(ert-deftest pickerd-unknown-error-codes-and-event-kinds-are-kept ()
  (should (eq (pickerd-error-name 16) 'selection_full))
  (should (eq (pickerd-error-name 4242) 'internal))
  (should (= (plist-get (pickerd--error-data 4242 "new") :code) 4242))
  (let ((event (pickerd-decode-event #x9a 30 (unibyte-string 1 2 3))))
    (should (eq (alist-get 'kind event) 'unknown))
    (should (= (alist-get 'type event) #x9a))
    (should (equal (alist-get 'payload event) (unibyte-string 1 2 3))))
  ;; A session change a newer daemon adds is kept as change-N.
  (let* ((state (pickerd-encode-payload #x80 '((change . 42) (name . "s") (width . 100))))
         (event (pickerd-decode-event #x80 30 state)))
    (should (eq (alist-get 'change event) 'change-42))
    (should (equal (alist-get 'name event) "s"))))

;; The tables against the Swift declaration (issue 22 item 4): docs/protocol-tables.json, which
;; DeclarationTableTests proves equal to the declaration.  A drift on either side fails here.
(ert-deftest pickerd-tables-are-the-swift-declaration ()
  (let* ((file (expand-file-name "../../../docs/protocol-tables.json" pickerd-test-dir))
         (declared (with-temp-buffer
                     (insert-file-contents file)
                     (json-parse-buffer :object-type 'alist)))
         (numbered (lambda (section)
                     (sort (mapcar (lambda (e) (cons (string-to-number (symbol-name (car e))) (cdr e)))
                                   (alist-get section declared))
                           (lambda (a b) (< (car a) (car b))))))
         (names (lambda (table) (sort (mapcar (lambda (e) (cons (car e) (symbol-name (cdr e)))) table)
                                      (lambda (a b) (< (car a) (car b)))))))
    (should (equal (mapcar (lambda (e) (cons (car e) (alist-get 'name (cdr e)))) (funcall numbered 'messages))
                   (sort (mapcar (lambda (m) (cons (car m) (symbol-name (cadr m)))) (copy-sequence pickerd-messages))
                         (lambda (a b) (< (car a) (car b))))))
    (should (equal (mapcar #'car (cl-remove-if-not (lambda (e) (equal (alist-get 'direction (cdr e)) "request"))
                                                   (funcall numbered 'messages)))
                   (sort (copy-sequence pickerd-request-types) #'<)))
    (should (equal (funcall numbered 'errors) (funcall names pickerd-error-names)))
    (should (equal (funcall numbered 'photo_formats) (funcall names pickerd-photo-formats)))
    (should (equal (funcall numbered 'output_formats) (funcall names pickerd-formats)))
    (should (equal (funcall numbered 'session_changes) (funcall names pickerd-session-changes)))))

(ert-deftest pickerd-an-extension-a-newer-server-adds-is-kept ()
  "A field added later travels in the extension area: kept byte for byte; an older server sends none."
  (let* ((fields '((path . "A/p.jpg") (name . "p.jpg") (format . 1) (width . 2) (height . 3) (bytes . 4)
                   (date . 5) (date_source . 1) (gps . t)))
         (older (pickerd-encode-frame #x33 7 fields))
         (newer (pickerd-encode-frame #x33 7 (cons (cons 'extensions (list (cons 9 (unibyte-string 1 2)))) fields))))
    (should (equal (substring newer 9) (concat (substring older 9) (unibyte-string 9 0 0 0 2 1 2))))
    (dolist (case (list (cons older nil) (cons newer (list (cons 9 (unibyte-string 1 2))))))
      (let* ((frame (pickerd-parse-frame (car case)))
             (decoded (pickerd-decode-payload (car frame) (nth 2 frame))))
        (should (equal (alist-get 'extensions decoded) (cdr case)))
        (should (equal (alist-get 'path decoded) "A/p.jpg"))
        (should (equal (pickerd-encode-frame (car frame) (nth 1 frame) decoded) (car case)))))))

;; Values a newer daemon adds (PROTOCOL.md, "Open values") survive decode and re-encode.
(ert-deftest pickerd-newer-values-round-trip-byte-for-byte ()
  (let ((row '((index . 1) (name . "a.new") (path . "a.new") (width . 2) (height . 3) (bytes . 4)
               (format . 77) (date . 5) (date_source . 9))))
    (dolist (m `((#x03 ((code . 4242) (message . "a newer code")))
                 (#x02 ((version . 1) (server_version . "pickerd 9") (max_request_frame . 1)
                        (max_reply_frame . 2) (input_formats . (1 77)) (output_formats . (2 42))))
                 (#x31 ((format . 42) (width . 1) (height . 1) (data . ,(unibyte-string 1))))
                 (#x2f ((album . "All Photos") (sort . 9) (total . 1) (offset . 0) (photos . (,row))))
                 (#x07 ((root . "/p") (album_count . 1) (photo_count . 1) (scan_state . 5)))
                 (#x09 ((state . 5) (files_done . 1) (files_expected . 2) (elapsed_ms . 3)))
                 (#x80 ((change . 42) (name . "s") (width . 100)))))
      (let* ((bytes (pickerd-encode-payload (car m) (cadr m)))
             (back (pickerd-decode-payload (car m) bytes)))
        (dolist (field (cadr m))
          (unless (consp (cdr field))
            (should (equal (cons (car m) (alist-get (car field) back)) (cons (car m) (cdr field))))))
        (should (equal (pickerd-encode-payload (car m) back) bytes))))))

(ert-deftest pickerd-strings-are-utf-8-and-i64-is-signed ()
  (let ((bytes (pickerd-encode-payload 'sessionShow '((session . "旅行/京都")))))
    (should (= (length bytes) (+ 4 13)))
    (should (equal (alist-get 'session (pickerd-decode-payload #x14 bytes)) "旅行/京都")))
  (let ((info (pickerd-encode-payload #x07 '((root . "/") (scanned_at . -5)))))
    (should (= (alist-get 'scanned_at (pickerd-decode-payload #x07 info)) -5))))

;; preview's flags byte is optional trailing; terminal cells are 1...1000 each.
(ert-deftest pickerd-preview-flags-are-optional-trailing-and-cells-ranged ()
  (let* ((base '((session . "main") (width . 1920) (height . 1080) (format . jpeg) (quality . 0)))
         (old (pickerd-encode-payload 'preview base))
         (cells (append '((format . symbols) (flags . 2) (cells (cols . 120) (rows . 40))) base))
         (new (pickerd-encode-payload 'preview cells)))
    (should (= (length old) (+ 8 4 4 1 1)))
    (should (equal (alist-get 'format (pickerd-decode-payload #x48 old)) 1))
    (should (equal (alist-get 'flags (pickerd-decode-payload #x48 old)) 0))
    (should-not (alist-get 'cells (pickerd-decode-payload #x48 (concat old (unibyte-string 0)))))
    (should (equal (substring new (- (length old) 2))
                   (unibyte-string 7 0 2 0 #x78 0 #x28)))
    (let ((fields (pickerd-decode-payload #x48 new)))
      (should (= (alist-get 'format fields) 7))
      (should (equal (alist-get 'cells fields) '((cols . 120) (rows . 40))))
      (should (equal (pickerd-encode-payload 'preview fields) new)))
    (dolist (bad '(0 1001))
      (let ((err (should-error
                  (pickerd-decode-payload
                   #x48 (pickerd-encode-payload 'preview (cons `(cells (cols . 120) (rows . ,bad)) cells)))
                  :type 'pickerd-wire-error)))
        (should (eq (plist-get (cdr err) :name) 'out_of_range))))
    (let ((err (should-error (pickerd-decode-payload #x48 (concat old (unibyte-string 2 0 #x78)))
                             :type 'pickerd-wire-error)))
      (should (eq (plist-get (cdr err) :name) 'malformed_frame))))
  (should (= (pickerd-format-code 'sixel) 6))
  (should (= (pickerd-format-code "JPG") 1))
  (should (eq (pickerd-format-name 7) 'symbols))
  (should (eq (pickerd-format-name 42) 'format-42))
  (should (eq (pickerd-format-name 4) 'heic))
  (should (eq (pickerd-format-name 5) 'avif))
  (should (eq (pickerd-format-name 9) 'jxl))
  ;; Decode-only formats are names of photos, never an output format to ask for.
  (should-error (pickerd-format-code 'gif))
  (should-error (pickerd-format-code 'heic)))

;;;; Frame reassembly (the connection's receive step, without a socket)

(defun pickerd-test-offline-conn ()
  (let ((buffer (generate-new-buffer " *pickerd-test-conn*")))
    (with-current-buffer buffer (set-buffer-multibyte nil))
    (pickerd--make-conn :buffer buffer :subscription 30)))

(ert-deftest pickerd-frames-fed-one-byte-at-a-time-are-routed-whole ()
  "Every vector but the connection error, one byte per chunk: replies by id, events queued."
  (let* ((frames (cl-remove-if (lambda (v) (or (eq (car v) 'refused)
                                               (string-prefix-p "error id=0" (nth 1 v))))
                               (pickerd-test-vectors)))
         (stream (apply #'concat (mapcar (lambda (v) (nth 2 v)) frames)))
         (conn (pickerd-test-offline-conn))
         (want (make-hash-table))
         (events 0))
    (unwind-protect
        (progn
          (dotimes (i (length stream))
            (pickerd--receive conn (substring stream i (1+ i))))
          (dolist (v frames)
            (let ((f (pickerd-parse-frame (nth 2 v))))
              (if (/= 0 (logand (car f) #x80))
                  (cl-incf events)
                (puthash (nth 1 f) (cons (car f) (nth 2 f)) want))))
          (should-not (pickerd-conn-lost conn))
          (should (= 0 (buffer-size (pickerd-conn-buffer conn))))
          (should (= (length (pickerd-conn-events conn)) events))
          (should (= (hash-table-count (pickerd-conn-replies conn)) (hash-table-count want)))
          (maphash (lambda (id reply) (should (equal (gethash id (pickerd-conn-replies conn)) reply)))
                   want))
      (kill-buffer (pickerd-conn-buffer conn)))))

(ert-deftest pickerd-a-bad-length-from-the-server-loses-the-connection ()
  (dolist (case (list (cons (pickerd--uint 4 4) "below the 5-byte header")
                      (cons (pickerd--uint (1+ pickerd-max-reply-frame) 4) "exceeds the maximum")))
    (let ((conn (pickerd-test-offline-conn)))
      (unwind-protect
          (progn
            (pickerd--receive conn (car case))
            (should (eq (plist-get (pickerd-conn-lost conn) :name) 'malformed_frame))
            (should (string-match-p (cdr case) (plist-get (pickerd-conn-lost conn) :message))))
        (kill-buffer (pickerd-conn-buffer conn))))))

;;;; The calls, against the live daemon

(ert-deftest pickerd-albums-lists-all-photos-first ()
  (pickerd-test-with-daemon
   (let ((albums (pickerd-albums)))
     (should (equal (car albums) "All Photos"))
     (should (> (length albums) 1))
     (should (cl-every #'stringp albums)))))

(ert-deftest pickerd-request-answers-and-pipelines-by-id ()
  (pickerd-test-with-daemon
   (let* ((conn (pickerd-connect))
          (version (alist-get 'server_version (pickerd-conn-capabilities conn))))
     (unwind-protect
         (let ((ids (cl-loop repeat 10 collect (pickerd-send 'ping nil conn)))
               (lib (pickerd-send 'libraryInfo nil conn)))
           (should (string-prefix-p "/" (alist-get 'root (pickerd-wait lib conn))))
           (dolist (id (reverse ids))
             (should (equal (alist-get 'server_version (pickerd-wait id conn)) version)))
           (should (equal (alist-get 'server_version (pickerd-request 'ping nil conn)) version)))
       (pickerd-close conn)))))

(ert-deftest pickerd-selection-returns-absolute-paths-of-the-picks ()
  (pickerd-test-with-daemon
   (let* ((conn (pickerd-connect))
          (session (pickerd-test-unique "sel")))
     (unwind-protect
         (progn
           (pickerd-request 'sessionNew `((name . ,session) (width . 300)) conn)
           (pickerd-request 'selectAlbum `((session . ,session)
                                           (album . ,(alist-get 'name (pickerd-test-folder-album conn 2))))
                            conn)
           (pickerd-request 'toggle `((session . ,session) (photo . 2)) conn)
           (pickerd-request 'toggle `((session . ,session) (photo . 1)) conn)
           (let ((paths (pickerd-selection session)))
             (should (= (length paths) 2))
             (dolist (p paths)
               (should (file-name-absolute-p p))
               (should (file-exists-p p))))
           (pickerd-clear-selection session)
           (should-not (pickerd-selection session)))
       (ignore-errors (pickerd-request 'sessionClose `((session . ,session)) conn))
       (pickerd-close conn)))))

(ert-deftest pickerd-photo-info-describes-a-photo-from-its-header ()
  "photoInfo (issue 22 item 6): the current photo, one by index, and nothing selected."
  (pickerd-test-with-daemon
   (let* ((conn (pickerd-connect))
          (session (pickerd-test-unique "info")))
     (unwind-protect
         (progn
           (pickerd-request 'sessionNew `((name . ,session) (width . 300)) conn)
           (pickerd-request 'selectAlbum `((session . ,session)
                                           (album . ,(alist-get 'name (pickerd-test-folder-album conn 2))))
                            conn)
           (should (eq 'nothing_selected
                       (condition-case err (pickerd-photo-info nil session)
                         (pickerd-error (plist-get (cdr err) :name)))))
           (pickerd-request 'selectPhoto `((session . ,session) (photo . 1)) conn)
           (let ((current (pickerd-photo-info nil session))
                 (second (pickerd-photo-info 2 session)))
             (should (string-match-p "/" (alist-get 'path current)))
             (should (memq (pickerd-format-name (alist-get 'format current)) '(jpeg webp)))
             (should (> (alist-get 'width current) 0))
             (should (> (alist-get 'bytes current) 0))
             (should (memq (alist-get 'gps current) '(nil t)))
             (should-not (alist-get 'extensions current))
             (should-not (equal (alist-get 'path current) (alist-get 'path second)))))
       (ignore-errors (pickerd-request 'sessionClose `((session . ,session)) conn))
       (pickerd-close conn)))))

(ert-deftest pickerd-image-data-is-a-png-of-the-replys-size ()
  (pickerd-test-with-daemon
   (let* ((conn (pickerd-connect))
          (session (pickerd-test-unique "img")))
     (unwind-protect
         (progn
           (pickerd-request 'sessionNew `((name . ,session) (width . 320) (height . 240)) conn)
           (pickerd-request 'selectAlbum `((session . ,session)
                                           (album . ,(alist-get 'name (pickerd-test-folder-album conn 1))))
                            conn)
           (pickerd-request 'selectPhoto `((session . ,session) (photo . 1)) conn)
           (let* ((image (pickerd-request 'getImage `((session . ,session) (format . 2)) conn))
                  (size (pickerd-png-size (alist-get 'data image))))
             (should (= (alist-get 'format image) 2))
             (should size)
             (should (equal size (cons (alist-get 'width image) (alist-get 'height image))))
             (should (or (= (car size) 320) (= (cdr size) 240)))
             (should (<= (car size) 320))
             (should (<= (cdr size) 240))))
       (ignore-errors (pickerd-request 'sessionClose `((session . ,session)) conn))
       (pickerd-close conn)))))

(ert-deftest pickerd-terminal-formats-take-cells ()
  (pickerd-test-with-daemon
   (let* ((conn (pickerd-connect))
          (session (pickerd-test-unique "term")))
     (unwind-protect
         (progn
           (pickerd-request 'sessionNew `((name . ,session) (width . 320) (height . 240)) conn)
           (pickerd-request 'selectAlbum `((session . ,session)
                                           (album . ,(alist-get 'name (pickerd-test-folder-album conn 1))))
                            conn)
           (pickerd-request 'selectPhoto `((session . ,session) (photo . 1)) conn)
           (let ((sym (pickerd-request 'getImage `((session . ,session) (format . symbols) (flags . 2)
                                                   (cells (cols . 80) (rows . 24)))
                                       conn)))
             (should (= (alist-get 'format sym) 7))
             (should (<= 1 (alist-get 'width sym) 80))
             (should (<= 1 (alist-get 'height sym) 24)))
           (let ((six (pickerd-request 'getImage `((session . ,session) (format . sixel)) conn)))
             (should (= (alist-get 'format six) 6))
             (should (string-prefix-p "\eP" (alist-get 'data six))))
           (let ((prev (pickerd-request 'preview `((session . ,session) (width . 320) (height . 200)
                                                   (format . symbols) (flags . 2)
                                                   (cells (cols . 120) (rows . 40)))
                                        conn)))
             (should (= (alist-get 'format prev) 7))
             (should (<= (alist-get 'width prev) 120)))
           (let ((err (should-error (pickerd-request 'getImage `((session . ,session) (format . symbols)
                                                                 (flags . 2) (cells (cols . 0) (rows . 24)))
                                                     conn)
                                    :type 'pickerd-error)))
             (should (eq (plist-get (cdr err) :name) 'out_of_range)))
           (let ((err (should-error (pickerd-request 'getImage `((session . ,session) (format . symbols)) conn)
                                    :type 'pickerd-error)))
             (should (eq (plist-get (cdr err) :name) 'invalid_argument))))
       (ignore-errors (pickerd-request 'sessionClose `((session . ,session)) conn))
       (pickerd-close conn)))))

(ert-deftest pickerd-selection-full-carries-code-message-and-an-emacs-hint ()
  (pickerd-test-with-daemon
   (let* ((conn (pickerd-connect))
          (session (pickerd-test-unique "full")))
     (unwind-protect
         (progn
           (pickerd-request 'sessionNew `((name . ,session) (width . 300) (max_selection . 1)) conn)
           (pickerd-request 'selectAlbum `((session . ,session)
                                           (album . ,(alist-get 'name (pickerd-test-folder-album conn 2))))
                            conn)
           (pickerd-request 'toggle `((session . ,session) (photo . 1)) conn)
           (let* ((err (should-error (pickerd-request 'toggle `((session . ,session) (photo . 2)) conn)
                                     :type 'pickerd-error))
                  (data (cdr err)))
             (should (= (plist-get data :code) 16))
             (should (eq (plist-get data :name) 'selection_full))
             (should (string-match-p "1" (plist-get data :message)))
             (should-not (string-match-p "SPC" (plist-get data :message)))
             (should (string-match-p "SPC" (plist-get data :hint)))
             (should (string-match-p "hint: " (pickerd-error-message err))))
           ;; The connection stays usable after an error reply.
           (should (pickerd-request 'ping nil conn)))
       (ignore-errors (pickerd-request 'sessionClose `((session . ,session)) conn))
       (pickerd-close conn)))))

(ert-deftest pickerd-connect-to-no-daemon-says-how-to-start-one ()
  (let* ((dir (make-temp-file "pkel" t))
         (path (expand-file-name "none.sock" dir)))
    (unwind-protect
        (let ((err (should-error (pickerd-connect path) :type 'pickerd-error)))
          (should (string-match-p "not running" (plist-get (cdr err) :message)))
          (should (string-match-p (regexp-quote (concat "pickerd --socket " path))
                                  (plist-get (cdr err) :hint))))
      (delete-directory dir t))))

(ert-deftest pickerd-session-events-arrive-for-changes-by-another-client ()
  (pickerd-test-with-daemon
   (let* ((conn (pickerd-connect))
          (session (pickerd-test-unique "ev")))
     (unwind-protect
         (progn
           (pickerd-request 'sessionNew `((name . ,session) (width . 300)) conn)
           (pickerd-subscribe conn session)
           (should (= 0 (pickerd-test-pickerctl "--session" session "select-album" "--index" "2")))
           (should (pickerd-test-wait-for (lambda () (pickerd-conn-events conn))))
           (let ((event (car (pickerd-conn-events conn))))
             (should (eq (alist-get 'kind event) 'sessionEvent))
             (should (eq (alist-get 'change event) 'album))
             (should (= (alist-get 'album_index event) 2))))
       (ignore-errors (pickerd-request 'sessionClose `((session . ,session)) conn))
       (pickerd-close conn)))))

;;;; Inserting picks

(unless (fboundp 'markdown-mode)
  ;; markdown-mode is an external package; a stand-in lets the test see the dispatch.
  (define-derived-mode markdown-mode text-mode "Markdown"))

(ert-deftest pickerd-picks-are-inserted-as-org-markdown-or-paths ()
  (let ((paths '("/lib/a b.jpg" "/lib/c.png")))
    (with-temp-buffer
      (org-mode)
      (insert "before\n")
      (pickerd-insert-picks paths (current-buffer))
      (should (equal (buffer-string) "before\n[[file:/lib/a b.jpg]]\n[[file:/lib/c.png]]")))
    (with-temp-buffer
      (markdown-mode)
      (pickerd-insert-picks paths (current-buffer))
      (should (equal (buffer-string) "![](/lib/a%20b.jpg)\n![](/lib/c.png)")))
    (with-temp-buffer
      (text-mode)
      (pickerd-insert-picks paths (current-buffer))
      (should (equal (buffer-string) "/lib/a b.jpg\n/lib/c.png")))
    (with-temp-buffer
      (let ((pickerd-insert-format (lambda (ps _buffer) (string-join ps ", "))))
        (pickerd-insert-picks paths (current-buffer))
        (should (equal (buffer-string) "/lib/a b.jpg, /lib/c.png"))))))

;; Issue 21 #6: a hostile name stays inside its link; org parses exactly one file link out of it.
(ert-deftest pickerd-hostile-names-cannot-break-out-of-inserted-links ()
  (let ((paths (list "/lib/x]] [[elisp:(shell-command \"touch /tmp/pwn\")]] [[y.jpg"
                     "/lib/a) ![x](/b) <img src=x onerror=alert(1)> (.png"
                     "/lib/two\n.bashrc.png")))
    (with-temp-buffer
      (org-mode)
      (pickerd-insert-picks paths (current-buffer))
      (should-not (string-match-p "[[:cntrl:]]" (replace-regexp-in-string "\n" "" (buffer-string))))
      (should (= (length (split-string (buffer-string) "\n")) 3))
      (let ((links (org-element-map (org-element-parse-buffer) 'link
                     (lambda (l) (cons (org-element-property :type l) (org-element-property :path l))))))
        (should (equal (mapcar #'car links) '("file" "file" "file")))
        (should (equal (cdr (nth 0 links)) (car paths)))))
    (with-temp-buffer
      (markdown-mode)
      (pickerd-insert-picks paths (current-buffer))
      (let ((lines (split-string (buffer-string) "\n")))
        (should (= (length lines) 3))
        (dolist (line lines)
          (should (string-match-p "\\`!\\[\\](/lib/[^][()<> \\\\]*)\\'" line)))))))

;;;; The picker

(ert-deftest pickerd-pick-toggles-with-spc-and-inserts-with-ret-into-the-org-buffer ()
  (pickerd-test-with-daemon
   (let ((pickerd-session (pickerd-test-unique "pick"))
         (origin (generate-new-buffer "notes.org")))
     (unwind-protect
         (progn
           (switch-to-buffer origin)
           (org-mode)
           (insert "Photos: ")
           (let* ((picker (pickerd-pick))
                  (albums (pickerd-picker-albums-buffer picker))
                  (photos (pickerd-picker-photos-buffer picker)))
             (should (equal (mapcar #'buffer-name (list albums photos (pickerd-picker-image-buffer picker)))
                            '("*pickerd-albums*" "*pickerd-photos*" "*pickerd-image*")))
             ;; Album list: go to a folder album, RET.
             (with-current-buffer albums
               (goto-char (point-min))
               (forward-line 1)
               (pickerd-pick-select-album))
             (with-current-buffer photos
               (should (> (count-lines (point-min) (point-max)) 0))
               (goto-char (point-min))
               (pickerd-pick-show-photo)       ; asynchronous: the answers arrive in the filter
               (should (pickerd-test-wait-for
                        (lambda () (pickerd-png-size (pickerd-picker-image-data picker)))))
               (should (string-match-p " px, " (alist-get 'message (pickerd-picker-state picker))))
               (with-current-buffer (pickerd-picker-image-buffer picker)
                 (should (string-match-p "PNG [0-9]+x[0-9]+" (buffer-string))))
               (goto-char (point-min))
               (pickerd-pick-toggle)          ; picks line 1, moves to line 2
               (should (string-match-p "\\[x\\]" (buffer-string)))
               ;; A pick made elsewhere arrives as an event and is drawn.
               (should (= 0 (pickerd-test-pickerctl "--session" pickerd-session "toggle" "--index" "2")))
               (should (pickerd-test-wait-for
                        (lambda () (= 2 (length (pickerd-picker-picks picker))))))
               (should (pickerd-test-wait-for
                        (lambda () (= 2 (how-many "\\[x\\]" (point-min) (point-max))))))
               (let ((inserted (pickerd-pick-insert)))
                 (should (= (length inserted) 2))
                 (with-current-buffer origin
                   (should (equal (buffer-string)
                                  (concat "Photos: " (mapconcat (lambda (p) (format "[[file:%s]]" p))
                                                                inserted "\n"))))))))
           ;; The picker left nothing behind.
           (should-not (get-buffer "*pickerd-photos*"))
           (should-not (get-buffer "*pickerd-image*")))
       (kill-buffer origin)
       (ignore-errors (pickerd-request 'sessionClose `((session . ,pickerd-session))))))))

;; pickerd closes connections left idle for --idle-timeout seconds (issue 21 #11): the shared
;; connection of the library functions must be opened again, even when nothing let Emacs see the
;; close before the next request (a busy command, no idle time).  Its own daemon, 1-second timeout.
(ert-deftest pickerd-an-idle-closed-shared-connection-is-opened-again ()
  (pickerd-test-with-daemon
   (let* ((dir (make-temp-file "pkel" t))
          (sock (expand-file-name "s.sock" dir))
          (album (expand-file-name "lib/A" dir))
          (process-environment (cons (concat "XDG_CACHE_HOME=" dir "/cache") process-environment))
          (daemon nil)
          (pickerd-socket sock)
          (pickerd--default-connection nil))
     (unwind-protect
         (progn
           (make-directory album t)
           (copy-file (expand-file-name "../../../Tests/Fixtures/pngsuite/basn2c08.png" pickerd-test-dir)
                      (expand-file-name "one.png" album))
           (setq daemon (start-process "pickerd-idle" nil (expand-file-name "pickerd" (getenv "PICKER_BIN_DIR"))
                                       "--library" (expand-file-name "lib" dir) "--socket" sock
                                       "--state-dir" (expand-file-name "state" dir) "--idle-timeout" "1"))
           (should (pickerd-test-wait-for (lambda () (file-exists-p sock))))
           (should (pickerd-test-wait-for (lambda () (ignore-errors (= 2 (length (pickerd-albums)))))))
           (let ((first pickerd--default-connection))
             (should (= 2 (length (pickerd-albums))))
             ;; Blocked past the timeout and the close, without reading: as a long command is.
             (call-process "sleep" nil nil nil "3")
             (should (= 2 (length (pickerd-albums))))
             (should-not (eq first pickerd--default-connection))))
       (when pickerd--default-connection (pickerd-close pickerd--default-connection))
       (when (process-live-p daemon)
         (signal-process daemon 'SIGTERM)
         (pickerd-test-wait-for (lambda () (not (process-live-p daemon)))))
       (delete-directory dir t)))))

(provide 'pickerd-test)
;;; pickerd-test.el ends here
