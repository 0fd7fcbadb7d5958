/// The service's OpenAPI 3.1 document, written by hand; tests check it with a validator and against
/// the router.
enum OpenAPIDocument {
    /// The document as JSON text.
    static let json: String = ##"""
{
 "openapi": "3.1.0",
 "info": {
  "title": "PlanMark",
  "version": "1.0.0",
  "description": "Floor-plan annotation service for map clients (Leaflet or flutter_map with CRS.Simple): drawings, regions, numbered markers, review images. Pixels are full-resolution image pixels (x right, y down); latLng values are CRS.Simple coordinates at the given zoom in the drawing's CRS flavour. GeoJSON positions are [x, y] in pixels, or [lng, lat] when a zoom is given. Every error is {\"error\":{\"code\":\"...\",\"message\":\"...\"}}.",
  "license": {
   "name": "MIT",
   "identifier": "MIT"
  }
 },
 "servers": [
  {
   "url": "http://127.0.0.1:8080"
  }
 ],
 "security": [
  {
   "bearer": []
  }
 ],
 "paths": {
  "/health": {
   "get": {
    "operationId": "health",
    "summary": "Liveness check (no token needed).",
    "security": [],
    "responses": {
     "200": {
      "description": "The service is up.",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "status"
         ],
         "properties": {
          "status": {
           "const": "ok"
          }
         }
        }
       }
      }
     }
    }
   }
  },
  "/openapi.json": {
   "get": {
    "operationId": "openapi",
    "summary": "This document.",
    "responses": {
     "200": {
      "description": "The OpenAPI 3.1 document.",
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    }
   }
  },
  "/validate": {
   "post": {
    "operationId": "validate",
    "summary": "Validate markers against regions and a size; the report of `planmark validate --report json`.",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/ValidateRequest"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "The report (valid and invalid markers alike).",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ValidationReport"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "413": {
      "$ref": "#/components/responses/TooLarge"
     }
    }
   }
  },
  "/drawings": {
   "get": {
    "operationId": "listDrawings",
    "summary": "Every drawing.",
    "responses": {
     "200": {
      "description": "The drawings, by name.",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "drawings"
         ],
         "properties": {
          "drawings": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Drawing"
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    }
   }
  },
  "/drawings/{name}": {
   "parameters": [
    {
     "$ref": "#/components/parameters/DrawingName"
    }
   ],
   "get": {
    "operationId": "getDrawing",
    "summary": "One drawing with its image bounds at its zoom.",
    "responses": {
     "200": {
      "description": "The drawing.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Drawing"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    }
   }
  },
  "/drawings/{name}/image": {
   "parameters": [
    {
     "$ref": "#/components/parameters/DrawingName"
    }
   ],
   "get": {
    "operationId": "getDrawingImage",
    "summary": "The drawing's PNG.",
    "parameters": [
     {
      "name": "If-None-Match",
      "in": "header",
      "required": false,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "The image.",
      "headers": {
       "ETag": {
        "schema": {
         "type": "string"
        }
       },
       "Cache-Control": {
        "schema": {
         "type": "string"
        }
       }
      },
      "content": {
       "image/png": {
        "schema": {
         "type": "string",
         "contentMediaType": "image/png"
        }
       }
      }
     },
     "304": {
      "description": "Not modified (the ETag matched)."
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "500": {
      "$ref": "#/components/responses/ServerError"
     }
    }
   }
  },
  "/drawings/{name}/regions": {
   "parameters": [
    {
     "$ref": "#/components/parameters/DrawingName"
    }
   ],
   "get": {
    "operationId": "getRegions",
    "summary": "Rooms and allowed areas as GeoJSON.",
    "parameters": [
     {
      "$ref": "#/components/parameters/Zoom"
     }
    ],
    "responses": {
     "200": {
      "description": "Polygons in pixels, or [lng, lat] at zoom.",
      "content": {
       "application/geo+json": {
        "schema": {
         "$ref": "#/components/schemas/FeatureCollection"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    }
   }
  },
  "/drawings/{name}/markers": {
   "parameters": [
    {
     "$ref": "#/components/parameters/DrawingName"
    }
   ],
   "get": {
    "operationId": "getMarkers",
    "summary": "The drawing's markers as GeoJSON Points.",
    "parameters": [
     {
      "$ref": "#/components/parameters/Zoom"
     },
     {
      "$ref": "#/components/parameters/Status"
     }
    ],
    "responses": {
     "200": {
      "description": "Points in pixels, or [lng, lat] at zoom; properties number, status, rooms, note, author, createdAt, updatedAt.",
      "content": {
       "application/geo+json": {
        "schema": {
         "$ref": "#/components/schemas/FeatureCollection"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    }
   },
   "post": {
    "operationId": "addMarker",
    "summary": "Validate and store a tap. Single-marker drawings replace their marker.",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/NewMarker"
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "Stored.",
      "headers": {
       "Location": {
        "schema": {
         "type": "string"
        }
       }
      },
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Marker"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "413": {
      "$ref": "#/components/responses/TooLarge"
     },
     "422": {
      "$ref": "#/components/responses/Refused"
     }
    }
   }
  },
  "/drawings/{name}/markers/{number}": {
   "parameters": [
    {
     "$ref": "#/components/parameters/DrawingName"
    },
    {
     "$ref": "#/components/parameters/MarkerNumber"
    }
   ],
   "get": {
    "operationId": "getMarker",
    "summary": "One marker.",
    "parameters": [
     {
      "$ref": "#/components/parameters/Zoom"
     }
    ],
    "responses": {
     "200": {
      "description": "The marker.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Marker"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    }
   },
   "patch": {
    "operationId": "changeMarker",
    "summary": "Move (validated like a new marker), resolve or reopen, or change the note.",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/MarkerChange"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "The marker after the change.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Marker"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "413": {
      "$ref": "#/components/responses/TooLarge"
     },
     "422": {
      "$ref": "#/components/responses/Refused"
     }
    }
   },
   "delete": {
    "operationId": "removeMarker",
    "summary": "Remove a marker; its number is never given again.",
    "parameters": [
     {
      "name": "author",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "Removed.",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "number",
          "removed"
         ],
         "properties": {
          "number": {
           "type": "integer"
          },
          "removed": {
           "const": true
          }
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    }
   }
  },
  "/drawings/{name}/markers/{number}/history": {
   "parameters": [
    {
     "$ref": "#/components/parameters/DrawingName"
    },
    {
     "$ref": "#/components/parameters/MarkerNumber"
    }
   ],
   "get": {
    "operationId": "getMarkerHistory",
    "summary": "Every change to the marker, oldest first (kept after removal).",
    "responses": {
     "200": {
      "description": "The history.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/History"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    }
   }
  },
  "/drawings/{name}/review.png": {
   "parameters": [
    {
     "$ref": "#/components/parameters/DrawingName"
    }
   ],
   "get": {
    "operationId": "getReviewImage",
    "summary": "The review image: drawing, room fills and outlines, numbered markers coloured by state.",
    "parameters": [
     {
      "name": "around",
      "in": "query",
      "required": false,
      "description": "Crop around this marker number.",
      "schema": {
       "type": "integer",
       "minimum": 1
      }
     },
     {
      "name": "margin",
      "in": "query",
      "required": false,
      "description": "Crop margin in pixels (with around; default 200).",
      "schema": {
       "type": "integer",
       "minimum": 0,
       "maximum": 100000
      }
     },
     {
      "name": "scale",
      "in": "query",
      "required": false,
      "description": "Output size over full size, in (0, 1].",
      "schema": {
       "type": "number",
       "exclusiveMinimum": 0,
       "maximum": 1
      }
     },
     {
      "name": "status",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string",
       "enum": [
        "open",
        "resolved",
        "all"
       ]
      }
     },
     {
      "name": "legend",
      "in": "query",
      "required": false,
      "schema": {
       "type": "boolean"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "The PNG.",
      "content": {
       "image/png": {
        "schema": {
         "type": "string",
         "contentMediaType": "image/png"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "422": {
      "$ref": "#/components/responses/Refused"
     },
     "500": {
      "$ref": "#/components/responses/ServerError"
     }
    }
   }
  }
 },
 "components": {
  "securitySchemes": {
   "bearer": {
    "type": "http",
    "scheme": "bearer",
    "description": "Required on every endpoint but /health when the server was started with a token."
   }
  },
  "parameters": {
   "DrawingName": {
    "name": "name",
    "in": "path",
    "required": true,
    "description": "The drawing's name (percent-encoded).",
    "schema": {
     "type": "string"
    }
   },
   "MarkerNumber": {
    "name": "number",
    "in": "path",
    "required": true,
    "schema": {
     "type": "integer",
     "minimum": 1
    }
   },
   "Zoom": {
    "name": "zoom",
    "in": "query",
    "required": false,
    "description": "Answer in latLng at this zoom ([lng, lat] in GeoJSON) in the drawing's CRS flavour; without it, pixels.",
    "schema": {
     "type": "number",
     "minimum": -64,
     "maximum": 64
    }
   },
   "Status": {
    "name": "status",
    "in": "query",
    "required": false,
    "schema": {
     "type": "string",
     "enum": [
      "open",
      "resolved"
     ]
    }
   }
  },
  "responses": {
   "BadRequest": {
    "description": "Malformed JSON or an invalid field or parameter (the message names it).",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   },
   "Unauthorized": {
    "description": "Missing or wrong bearer token.",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   },
   "NotFound": {
    "description": "Unknown drawing, marker or endpoint.",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   },
   "TooLarge": {
    "description": "The body is over the limit (1 MiB by default).",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   },
   "Refused": {
    "description": "The position was refused; code outside-drawing, outside-allowed-area or invalid-coordinate. Nothing was stored.",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   },
   "ServerError": {
    "description": "The store or the drawing's image failed.",
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    }
   }
  },
  "schemas": {
   "Error": {
    "type": "object",
    "required": [
     "error"
    ],
    "properties": {
     "error": {
      "type": "object",
      "required": [
       "code",
       "message"
      ],
      "properties": {
       "code": {
        "type": "string"
       },
       "message": {
        "type": "string"
       }
      }
     }
    }
   },
   "LatLngPair": {
    "type": "array",
    "description": "[lat, lng]",
    "prefixItems": [
     {
      "type": "number"
     },
     {
      "type": "number"
     }
    ],
    "minItems": 2,
    "maxItems": 2
   },
   "Drawing": {
    "type": "object",
    "required": [
     "name",
     "width",
     "height",
     "zoom",
     "crs",
     "markers",
     "bounds"
    ],
    "properties": {
     "name": {
      "type": "string"
     },
     "width": {
      "type": "integer"
     },
     "height": {
      "type": "integer"
     },
     "zoom": {
      "type": "number"
     },
     "crs": {
      "type": "string",
      "enum": [
       "leaflet",
       "flutter"
      ]
     },
     "singleMarker": {
      "type": "boolean"
     },
     "markers": {
      "type": "integer",
      "description": "Markers stored (removed ones excluded)."
     },
     "regions": {
      "type": "integer"
     },
     "nextNumber": {
      "type": "integer"
     },
     "createdAt": {
      "type": "string",
      "format": "date-time"
     },
     "image": {
      "type": "string",
      "description": "URL path of the PNG."
     },
     "bounds": {
      "type": "object",
      "description": "Image overlay bounds at the drawing's zoom in its CRS flavour.",
      "required": [
       "southWest",
       "northEast"
      ],
      "properties": {
       "southWest": {
        "$ref": "#/components/schemas/LatLngPair"
       },
       "northEast": {
        "$ref": "#/components/schemas/LatLngPair"
       }
      }
     }
    }
   },
   "NewMarker": {
    "type": "object",
    "additionalProperties": false,
    "description": "x and y in pixels, or lat and lng at zoom (default: the drawing's zoom).",
    "properties": {
     "x": {
      "type": "number"
     },
     "y": {
      "type": "number"
     },
     "lat": {
      "type": "number"
     },
     "lng": {
      "type": "number"
     },
     "zoom": {
      "type": "number",
      "minimum": -64,
      "maximum": 64
     },
     "note": {
      "type": "string"
     },
     "author": {
      "type": "string"
     }
    },
    "oneOf": [
     {
      "required": [
       "x",
       "y"
      ]
     },
     {
      "required": [
       "lat",
       "lng"
      ]
     }
    ]
   },
   "MarkerChange": {
    "type": "object",
    "additionalProperties": false,
    "minProperties": 1,
    "properties": {
     "x": {
      "type": "number"
     },
     "y": {
      "type": "number"
     },
     "lat": {
      "type": "number"
     },
     "lng": {
      "type": "number"
     },
     "zoom": {
      "type": "number",
      "minimum": -64,
      "maximum": 64
     },
     "status": {
      "type": "string",
      "enum": [
       "open",
       "resolved"
      ]
     },
     "note": {
      "type": [
       "string",
       "null"
      ]
     },
     "author": {
      "type": "string"
     }
    }
   },
   "Marker": {
    "type": "object",
    "required": [
     "number",
     "x",
     "y",
     "status",
     "rooms"
    ],
    "properties": {
     "number": {
      "type": "integer",
      "minimum": 1
     },
     "x": {
      "type": "number"
     },
     "y": {
      "type": "number"
     },
     "lat": {
      "type": "number",
      "description": "When the request used latLng (or gave zoom): at that zoom."
     },
     "lng": {
      "type": "number"
     },
     "status": {
      "type": "string",
      "enum": [
       "open",
       "resolved"
      ]
     },
     "rooms": {
      "type": "array",
      "items": {
       "type": "string"
      }
     },
     "note": {
      "type": [
       "string",
       "null"
      ]
     },
     "author": {
      "type": [
       "string",
       "null"
      ]
     },
     "createdAt": {
      "type": "string",
      "format": "date-time"
     },
     "updatedAt": {
      "type": "string",
      "format": "date-time"
     }
    }
   },
   "FeatureCollection": {
    "type": "object",
    "required": [
     "type",
     "features"
    ],
    "properties": {
     "type": {
      "const": "FeatureCollection"
     },
     "features": {
      "type": "array",
      "items": {
       "type": "object",
       "required": [
        "type",
        "geometry",
        "properties"
       ],
       "properties": {
        "type": {
         "const": "Feature"
        },
        "id": {
         "type": [
          "string",
          "integer"
         ]
        },
        "geometry": {
         "type": "object"
        },
        "properties": {
         "type": "object"
        }
       }
      }
     }
    }
   },
   "History": {
    "type": "object",
    "required": [
     "drawing",
     "number",
     "history"
    ],
    "properties": {
     "drawing": {
      "type": "string"
     },
     "number": {
      "type": "integer"
     },
     "history": {
      "type": "array",
      "items": {
       "type": "object",
       "required": [
        "action",
        "at"
       ],
       "properties": {
        "action": {
         "type": "string",
         "enum": [
          "created",
          "moved",
          "resolved",
          "reopened",
          "removed",
          "edited"
         ]
        },
        "at": {
         "type": "string",
         "format": "date-time"
        },
        "author": {
         "type": [
          "string",
          "null"
         ]
        },
        "old": {
         "type": [
          "object",
          "null"
         ]
        },
        "new": {
         "type": [
          "object",
          "null"
         ]
        }
       }
      }
     }
    }
   },
   "ValidateRequest": {
    "type": "object",
    "required": [
     "regions",
     "markers"
    ],
    "additionalProperties": false,
    "properties": {
     "regions": {
      "$ref": "#/components/schemas/FeatureCollection",
      "description": "Polygon/MultiPolygon regions in pixels (properties.kind room or allowed)."
     },
     "size": {
      "type": "array",
      "description": "[width, height] in pixels.",
      "prefixItems": [
       {
        "type": "number"
       },
       {
        "type": "number"
       }
      ],
      "minItems": 2,
      "maxItems": 2
     },
     "markers": {
      "oneOf": [
       {
        "$ref": "#/components/schemas/FeatureCollection"
       },
       {
        "type": "array",
        "items": {
         "type": "array",
         "prefixItems": [
          {
           "type": "number"
          },
          {
           "type": "number"
          }
         ],
         "minItems": 2,
         "maxItems": 2
        }
       }
      ]
     },
     "boundary": {
      "type": "string",
      "enum": [
       "include",
       "exclude"
      ]
     },
     "requireRoom": {
      "type": "boolean"
     }
    }
   },
   "ValidationReport": {
    "type": "object",
    "required": [
     "markers",
     "summary"
    ],
    "properties": {
     "markers": {
      "type": "array",
      "items": {
       "type": "object",
       "required": [
        "id",
        "x",
        "y",
        "valid",
        "reason",
        "regions"
       ],
       "properties": {
        "id": {
         "type": "string"
        },
        "x": {
         "type": [
          "number",
          "null"
         ]
        },
        "y": {
         "type": [
          "number",
          "null"
         ]
        },
        "valid": {
         "type": "boolean"
        },
        "reason": {
         "type": [
          "string",
          "null"
         ],
         "enum": [
          "invalid-coordinate",
          "outside-drawing",
          "outside-allowed-area",
          "outside-rooms",
          null
         ]
        },
        "regions": {
         "type": "array",
         "items": {
          "type": "object",
          "required": [
           "id",
           "kind",
           "location"
          ],
          "properties": {
           "id": {
            "type": "string"
           },
           "kind": {
            "type": "string",
            "enum": [
             "room",
             "allowed"
            ]
           },
           "location": {
            "type": "string",
            "enum": [
             "inside",
             "boundary"
            ]
           }
          }
         }
        }
       }
      }
     },
     "summary": {
      "type": "object",
      "required": [
       "total",
       "valid",
       "invalid",
       "byReason"
      ],
      "properties": {
       "total": {
        "type": "integer"
       },
       "valid": {
        "type": "integer"
       },
       "invalid": {
        "type": "integer"
       },
       "byReason": {
        "type": "object",
        "additionalProperties": {
         "type": "integer"
        }
       }
      }
     }
    }
   }
  }
 }
}
"""##
}
