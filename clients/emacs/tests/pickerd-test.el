;;; pickerd-test.el --- ERT tests of pickerd.el's calls against a live daemon  -*- lexical-binding: t; -*-

;;; Commentary:

;; The library functions against the daemon run-tests.sh starts (PICKER_SOCKET, and
;; PICKER_BIN_DIR for pickerctl): requests, selection, images, errors, events, inserting.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'org)
(require 'pickerd-test-support)

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
             ;; Asked for its RAW companion: an empty entry, no pair here.
             (should (equal (alist-get 'extensions current) (list (cons pickerd-raw-companion-tag ""))))
             (should-not (alist-get 'raw_companion current))
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
