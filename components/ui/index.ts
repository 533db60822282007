export { Badge, type BadgeTone } from "./badge";
export { Button, buttonClass, type ButtonProps, type ButtonSize, type ButtonVariant } from "./button";
export { Card } from "./card";
export { cn } from "./cn";
export { CopyButton } from "./copy-button";
export { Dialog, FormDialog, FormDialogFooter, type DialogProps } from "./dialog";
export { EditableTitle } from "./editable-title";
export { EmptyState } from "./empty-state";
export { focusRing } from "./focus-ring";
export {
  AlertIcon,
  ArrowRightIcon,
  BookIcon,
  CheckIcon,
  CloseIcon,
  CopyIcon,
  ExternalIcon,
  HomeIcon,
  Icon,
  InfoIcon,
  KeyIcon,
  PencilIcon,
  PlusIcon,
  SettingsIcon,
  Spinner,
  type IconProps,
} from "./icons";
export { InlineCode } from "./inline-code";
export { Input } from "./input";
export { Kbd } from "./kbd";
export { ListCard } from "./list-card";
export { Notice, type NoticeTone } from "./notice";
export { QueryError } from "./query-error";
export { QueryView, type QueryLike } from "./query-view";
export { PagedListFooter } from "./paged-list-footer";
export { ShownOnceSecret } from "./shown-once-secret";
export { Skeleton } from "./skeleton";
export { Table, TableBody, TableCell, TableHeaderGroup, TableColumnHeader, TableRow } from "./table";
export { Textarea } from "./textarea";
export { TextField, type TextFieldProps } from "./text-field";
export { formatRelative, TimeAgo } from "./time-ago";
export { ToastProvider, useToast, useToastClearance, type ToastInput } from "./toast";
export { describeLoadError, type LoadErrorText } from "./load-error";
export { isForeignKeyPress, useHotkeys, type Hotkeys } from "./use-hotkeys";
