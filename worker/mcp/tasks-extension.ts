/** The identifier of the tasks extension in capabilities. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
