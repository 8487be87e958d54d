import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-6N6MJ6WD.js";import"./chunk-OULGIBU3.js";import"./chunk-S4AMLIBF.js";import"./chunk-WXFYKNDK.js";import"./chunk-PJ7S4EU2.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-KJBND4MI.js";import"./chunk-XBPPTJU7.js";export{a as action};
