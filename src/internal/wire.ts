/**
 * The service's JSON bodies as they cross the wire (contract §5, §6): one declaration that the
 * client, the mock and the OpenAPI generator share, since they are the same bytes.
 */

/** One field-level problem, as the service's error body lists them under `details`. */
export interface ErrorDetail {
  /** The input field at fault, such as `recipient_id`. */
  field: string;
  /** What is wrong with it, such as `must be a UUID`. */
  message: string;
}

/** The body of every non-2xx answer (contract §6). */
export interface ErrorBody {
  error: {
    /** Machine-readable code, such as `validation_error`. */
    code: string;
    /** Human-readable text. */
    message: string;
    /** Field-level problems, where there are any. */
    details?: ErrorDetail[];
  };
}

/** The `pagination` object of a list answer (contract §5). */
export interface Pagination {
  /** The page number of this page (1-based). */
  page: number;
  /** Pages in the whole list; 0 for an empty list. */
  total_pages: number;
  /** Cursor of the next page in cursor mode; null at the end. */
  next_cursor?: string | null | undefined;
}

/** The body of a list answer (contract §5): one page of records and where it stands. */
export interface PageBody<Item> {
  /** The records of the page; empty past the last page. */
  data: Item[];
  /** Where the page stands in the list. */
  pagination: Pagination;
}
