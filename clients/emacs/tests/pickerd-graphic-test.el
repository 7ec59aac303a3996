;;; pickerd-graphic-test.el --- M-x pickerd-pick in a graphic Emacs under Xvfb, as a user  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by clients/emacs/run-tests.sh.  Starts a private Xvfb and a graphic Emacs (Debian's
;; emacs-lucid or emacs-gtk) on it with an org buffer, types M-x pickerd-pick, an album and a
;; photo through XTEST (Tests/tools/xkeys.py), and checks what a user sees: the session's pane
;; is the image window's body in pixels, the PNG shown fits it, and a screenshot holds that
;; picture (Tests/tools/screenmatch.py); the pane follows a bigger frame; SPC and RET insert the
;; pick into the org buffer.  Emacs is asked what it shows through its own server
;; (emacsclient), never told what to do that way.  Issue 25 #1: "the picture in every Emacs".

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'json)
(require 'pickerd-test-support)

(defconst pickerd-graphic-test--tools
  (expand-file-name "../../../Tests/tools/" pickerd-test-dir))

(defconst pickerd-graphic-test--python
  (if (file-executable-p "/usr/bin/python3") "/usr/bin/python3" "python3")
  "Debian's Python, which has Pillow (python3-pil) for screenmatch.py; another on PATH may not.")

(defun pickerd-graphic-test--emacs ()
  "A graphic (X11) Emacs on this machine, or nil."
  (cl-some #'executable-find '("emacs-lucid" "emacs-gtk")))

(defun pickerd-graphic-test--spawn (dir name command)
  "Start COMMAND (a shell line) detached, its output in DIR/NAME.log; its pid.
Children are started by sh and followed by pid, not as Emacs processes: waiting in
`accept-process-output' on an Xvfb or a second Emacs made Emacs 28 spin here."
  (let ((pid-file (expand-file-name (concat name ".pid") dir)))
    (call-process "sh" nil 0 nil "-c"
                  (format "%s > %s 2>&1 & echo $! > %s" command
                          (shell-quote-argument (expand-file-name (concat name ".log") dir))
                          (shell-quote-argument pid-file)))
    (pickerd-graphic-test--poll (lambda () (file-exists-p pid-file)))
    (with-temp-buffer (insert-file-contents pid-file) (string-to-number (buffer-string)))))

(defun pickerd-graphic-test--poll (predicate)
  "Wait (at most `pickerd-timeout' s) until PREDICATE holds; its value."
  (let ((deadline (+ (float-time) pickerd-timeout)) value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (sleep-for 0.05))
    value))

(defun pickerd-graphic-test--stop (pid)
  "End PID: TERM, then KILL if it is still there after a few seconds."
  (when (and pid (> pid 0) (process-attributes pid))
    (signal-process pid 'TERM)
    (let ((pickerd-timeout 5)) (pickerd-graphic-test--poll (lambda () (not (process-attributes pid)))))
    (when (process-attributes pid) (signal-process pid 'KILL))))

(defun pickerd-graphic-test--start-xvfb (dir)
  "Start Xvfb; (PID . DISPLAY) once it has written its display's number (-displayfd 1)."
  (let* ((number-file (expand-file-name "display" dir))
         (pid (pickerd-graphic-test--spawn
               dir "xvfb" (format "exec Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3> %s"
                                  (shell-quote-argument number-file))))
         (number (lambda () (and (file-exists-p number-file)
                                 (with-temp-buffer (insert-file-contents number-file)
                                                   (and (string-match "^\\([0-9]+\\)\n" (buffer-string))
                                                        (match-string 1 (buffer-string))))))))
    (cons pid (concat ":" (or (pickerd-graphic-test--poll number) "none")))))

(defun pickerd-graphic-test--ask (server expression)
  "EXPRESSION's value in the graphic Emacs whose server socket is SERVER, read back (nil on failure).
The value must print readably (a window does not: ask for t or a list)."
  (with-temp-buffer
    (when (= 0 (call-process "emacsclient" nil t nil "-s" server "--eval" expression))
      (ignore-errors (car (read-from-string (buffer-string)))))))

(defun pickerd-graphic-test--keys (display &rest keys)
  "Type KEYS (X keysyms, chords joined by +) into the Emacs frame on DISPLAY."
  (should (= 0 (apply #'call-process pickerd-graphic-test--python nil nil nil
                      (expand-file-name "xkeys.py" pickerd-graphic-test--tools) display "300" "300" keys))))

(defun pickerd-graphic-test--wait (server expression)
  "Wait (at most `pickerd-timeout' s) until EXPRESSION is non-nil in the graphic Emacs; its value."
  (let (value)
    (pickerd-graphic-test--poll (lambda () (setq value (pickerd-graphic-test--ask server expression))))
    value))

(defconst pickerd-graphic-test--shown-image
  "(let ((w (get-buffer-window \"*pickerd-image*\")))
     (when w (with-current-buffer \"*pickerd-image*\"
       (let* ((d (get-text-property (point-min) 'display))
              (margin (or (plist-get (cdr-safe d) :margin) '(0 . 0))))
         (when (eq (car-safe d) 'image)
           (list (- (car (image-size d t)) (* 2 (car margin))) (- (cdr (image-size d t)) (* 2 (cdr margin)))
                 (window-body-width w t) (window-body-height w t)
                 (window-inside-absolute-pixel-edges w)))))))"
  "In the graphic Emacs: (IMAGE-W IMAGE-H PANE-W PANE-H BODY-EDGES) once the image pane shows a picture.
IMAGE-W and IMAGE-H are the picture's own size, without the margins that centre it.")

(defun pickerd-graphic-test--screen-matches (display dir session)
  "Whether a screenshot of DISPLAY holds SESSION's picture as the daemon renders it (a PNG in DIR)."
  (let ((reference (expand-file-name "reference.png" dir))
        (shot (expand-file-name "screen.ppm" dir)))
    (should (= 0 (pickerd-test-pickerctl "--session" session "-o" reference "get-image")))
    (should (= 0 (call-process "sh" nil nil nil "-c"
                               (format "xwd -root -silent -display %s | xwdtopnm > %s 2>/dev/null"
                                       display (shell-quote-argument shot)))))
    (let* ((out (with-temp-buffer
                  (call-process pickerd-graphic-test--python nil t nil (expand-file-name "screenmatch.py" pickerd-graphic-test--tools)
                                shot reference)
                  (buffer-string)))
           (match (ignore-errors (json-parse-string out :object-type 'alist)))
           (mad (alist-get 'mad match 999)) (baseline (alist-get 'baseline match 0))
           (region (append (alist-get 'region_mean match) nil))
           (expected (append (alist-get 'reference_mean match) nil)))
      (message "screen match: %s" out)
      ;; As the sixel terminals' tests judge it: far closer than a flat colour, the same mean colour.
      (and (< mad (/ baseline 2.0)) (= 3 (length region)) (= 3 (length expected))
           (cl-every (lambda (a b) (< (abs (- a b)) 12)) region expected)
           (cons (alist-get 'x match) (alist-get 'y match))))))

(defun pickerd-graphic-test--centred (shown at)
  "Whether the picture found on the screen AT (X . Y) sits in the middle of the body SHOWN names."
  (cl-destructuring-bind (iw ih pw ph edges) shown
    (let ((x (+ (nth 0 edges) (/ (- pw iw) 2))) (y (+ (nth 1 edges) (/ (- ph ih) 2))))
      (message "picture at %s, centred would be (%d . %d)" at x y)
      (and (<= (abs (- (car at) x)) 4) (<= (abs (- (cdr at) y)) 4)))))

(defun pickerd-graphic-test--fits (shown)
  "Whether SHOWN (IMAGE-W IMAGE-H PANE-W PANE-H) is a picture fitted to its pane."
  (cl-destructuring-bind (iw ih pw ph &rest _) shown
    (and (<= iw pw) (<= ih ph) (or (<= (- pw iw) 1) (<= (- ph ih) 1)))))

(ert-deftest pickerd-pick-in-a-graphic-emacs-shows-the-photo-fitted-to-its-pane ()
  (pickerd-test-with-daemon
   (skip-unless (pickerd-graphic-test--emacs))
   (skip-unless (cl-every #'executable-find '("Xvfb" "xwd" "xwdtopnm" "emacsclient" "python3")))
   (let* ((dir (make-temp-file "pkgx" t))
          (server-dir (expand-file-name "srv" dir))
          (server (expand-file-name "g" server-dir))
          (session (pickerd-test-unique "graphic"))
          (notes (expand-file-name "notes.org" dir))
          (here (expand-file-name ".." pickerd-test-dir))
          (xvfb nil) (emacs nil))
     (unwind-protect
         (progn
           (make-directory server-dir)
           (set-file-modes server-dir #o700) ; server-start refuses a folder others may enter
           (setq xvfb (pickerd-graphic-test--start-xvfb dir))
           (setq emacs
                 (pickerd-graphic-test--spawn
                  dir "emacs"
                  (mapconcat #'shell-quote-argument
                             (list "exec" "env" (concat "DISPLAY=" (cdr xvfb)) (concat "HOME=" dir)
                                   (concat "PICKER_SESSION=" session)
                                   (concat "PICKER_SOCKET=" (getenv "PICKER_SOCKET"))
                                   (pickerd-graphic-test--emacs) "-Q" "-geometry" "160x45+0+0"
                                   "--eval" "(setq native-comp-deferred-compilation nil)"
                                   "--eval" "(setq auto-save-default nil auto-save-list-file-prefix nil)"
                                   "-L" here "-l" "pickerd"
                                   "--eval" (format "(progn (setq server-socket-dir %S server-name \"g\") (server-start))"
                                                    server-dir)
                                   notes)
                             " ")))
           (should (pickerd-graphic-test--wait
                    server "(and (display-graphic-p) (equal (buffer-name (window-buffer (selected-window))) \"notes.org\"))"))
           (pickerd-graphic-test--keys (cdr xvfb) "Alt_L+x" "p" "i" "c" "k" "e" "r" "d" "minus" "p" "i" "c" "k" "Return")
           (should (pickerd-graphic-test--wait server "(and (get-buffer-window \"*pickerd-albums*\") t)"))
           (pickerd-graphic-test--keys (cdr xvfb) "n" "Return") ; the second album
           (should (pickerd-graphic-test--wait server "(and (get-buffer-window \"*pickerd-photos*\") t)"))
           (pickerd-graphic-test--keys (cdr xvfb) "n")          ; a photo: the picture follows point
           (let ((shown (pickerd-graphic-test--wait server pickerd-graphic-test--shown-image)))
             (should shown)
             ;; The session's pane is the image window's body in pixels, and the picture fits it.
             (should (pickerd-test-wait-for
                      (lambda () (let ((status (pickerd-request 'status `((session . ,session)))))
                                   (and (= (alist-get 'width status) (nth 2 shown))
                                        (= (alist-get 'height status) (nth 3 shown)))))))
             (should (pickerd-graphic-test--fits shown))
             (let ((at (pickerd-graphic-test--screen-matches (cdr xvfb) dir session)))
               (should at)
               (should (pickerd-graphic-test--centred shown at)))
             ;; A bigger frame: the pane and the picture follow.
             (pickerd-graphic-test--ask server "(progn (set-frame-size (selected-frame) 190 55) t)")
             (let ((bigger (pickerd-graphic-test--wait
                            server (format "(let ((s %s)) (and s (> (nth 2 s) %d) (> (car s) %d) s))"
                                           pickerd-graphic-test--shown-image (nth 2 shown) (car shown)))))
               (should bigger)
               (should (pickerd-graphic-test--fits bigger))))
           (pickerd-graphic-test--keys (cdr xvfb) "space" "Return")
           (should (pickerd-graphic-test--wait
                    server "(with-current-buffer \"notes.org\" (string-match-p \"file:/.*\\\\.\\\\(jpg\\\\|webp\\\\)\" (buffer-string)))"))
           ;; The windows are notes.org alone again.
           (should (equal (pickerd-graphic-test--ask
                           server "(mapcar (lambda (w) (buffer-name (window-buffer w))) (window-list))")
                          '("notes.org"))))
       (pickerd-graphic-test--stop emacs)
       (pickerd-graphic-test--stop (car xvfb))
       (ignore-errors (pickerd-request 'sessionClose `((session . ,session))))
       (delete-directory dir t)))))

(provide 'pickerd-graphic-test)
;;; pickerd-graphic-test.el ends here
